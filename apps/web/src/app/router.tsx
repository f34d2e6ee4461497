import { createBrowserRouter, type RouteObject } from 'react-router'
import { PageSkeleton } from '@/components/layout/page-skeleton'
import { RouteError } from '@/components/layout/route-error'
import { lazyRoute } from './lazy-route'

const page = (load: Parameters<typeof lazyRoute>[0]) => ({
  lazy: lazyRoute(load),
  ErrorBoundary: RouteError,
})

export const routes: RouteObject[] = [
  {
    HydrateFallback: PageSkeleton,
    ErrorBoundary: RouteError,
    children: [
      { index: true, ...page(() => import('./routes/home')) },
      { path: 'sign-in', ...page(() => import('./routes/auth/sign-in')) },
      { path: 'sign-up', ...page(() => import('./routes/auth/sign-up')) },
      { path: 'magic-link', ...page(() => import('./routes/auth/magic-link')) },
      { path: 'forgot-password', ...page(() => import('./routes/auth/forgot-password')) },
      { path: 'reset-password', ...page(() => import('./routes/auth/reset-password')) },
      { path: 'invite/:token', ...page(() => import('./routes/invite')) },
      { path: 'workspaces', ...page(() => import('./routes/workspaces')) },
      { path: 'account', ...page(() => import('./routes/account')) },
      {
        path: 'w/:workspaceId',
        ...page(() => import('./routes/workspace/layout')),
        children: [
          { index: true, ...page(() => import('./routes/workspace/index')) },
          { path: 'library', ...page(() => import('./routes/workspace/library')) },
          { path: 'documents/:documentId', ...page(() => import('./routes/workspace/document')) },
          { path: 'search', ...page(() => import('./routes/workspace/search')) },
          { path: 'chat', ...page(() => import('./routes/workspace/chat')) },
          {
            path: 'chat/:conversationId',
            ...page(() => import('./routes/workspace/chat-conversation')),
          },
          { path: 'members', ...page(() => import('./routes/workspace/members')) },
          { path: 'settings', ...page(() => import('./routes/workspace/settings')) },
        ],
      },
      { path: '*', ...page(() => import('./routes/not-found')) },
    ],
  },
]

export function createAppRouter() {
  return createBrowserRouter(routes)
}
