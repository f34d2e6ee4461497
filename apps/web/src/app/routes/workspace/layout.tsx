import {
  FolderOpenIcon,
  MessagesSquareIcon,
  SearchIcon,
  SettingsIcon,
  UsersIcon,
} from 'lucide-react'
import {
  type LoaderFunctionArgs,
  Navigate,
  Outlet,
  redirect,
  useLoaderData,
  useNavigate,
  useParams,
} from 'react-router'
import { AppShell } from '@/components/layout/app-shell'
import { NavItem } from '@/components/layout/nav-item'
import { PageSkeleton } from '@/components/layout/page-skeleton'
import { ThemeToggle } from '@/components/layout/theme-toggle'
import { needsSecondFactor } from '@/features/auth/api/needs-second-factor'
import { getSession } from '@/features/auth/api/use-session'
import { UserMenu } from '@/features/auth/components/user-menu'
import { useMembersRealtime } from '@/features/members/hooks/use-members-realtime'
import { getWorkspaceQueryOptions, useWorkspace } from '@/features/workspaces/api/get-workspace'
import { getWorkspacesRequiringMfaQueryOptions } from '@/features/workspaces/api/get-workspaces-requiring-mfa'
import { workspaceKeys } from '@/features/workspaces/api/keys'
import { WorkspaceSwitcher } from '@/features/workspaces/components/workspace-switcher'
import { lastWorkspace } from '@/features/workspaces/utils/last-workspace'
import { withNext } from '@/lib/next-path'
import { queryClient } from '@/lib/query-client'
import { requireSession } from '../../session'
import type { WorkspaceContext } from './context'
import { TwoFactorRequired } from './two-factor-required'

export async function loader({ request, params }: LoaderFunctionArgs) {
  const session = await requireSession(request)
  const id = params.workspaceId ?? ''
  const workspace = await queryClient.ensureQueryData(getWorkspaceQueryOptions(id))
  if (!workspace) {
    // Closed to this session for want of a second factor, rather than gone.
    const closed = await queryClient.fetchQuery({
      ...getWorkspacesRequiringMfaQueryOptions(),
      staleTime: 0,
    })
    const blocked = closed.find((w) => w.id === id)
    if (blocked) {
      // The session's copy may be behind Auth: with an app added on another device, this
      // session needs its code (or was ended there), rather than an app it already has.
      if ((await needsSecondFactor({ fresh: true })) || !(await getSession())) {
        // Not found was this session's answer; with the code it is there.
        queryClient.removeQueries({ queryKey: workspaceKeys.detail(id) })
        const url = new URL(request.url)
        throw redirect(withNext('/sign-in', url.pathname + url.search))
      }
      return { userId: session.user.id, blocked }
    }
    if (lastWorkspace.get() === id) lastWorkspace.set(null)
    throw new Response('Workspace not found', { status: 404 })
  }
  lastWorkspace.set(id)
  return { userId: session.user.id, blocked: null }
}

const sections = [
  { path: 'library', label: 'Library', icon: FolderOpenIcon },
  { path: 'search', label: 'Search', icon: SearchIcon },
  { path: 'chat', label: 'Chat', icon: MessagesSquareIcon },
  { path: 'members', label: 'Members', icon: UsersIcon },
  { path: 'settings', label: 'Settings', icon: SettingsIcon },
]

export default function WorkspaceLayout() {
  const { workspaceId = '' } = useParams()
  const navigate = useNavigate()
  const workspace = useWorkspace(workspaceId)
  const { userId, blocked } = useLoaderData<typeof loader>()
  // A role change shows at once for everyone in the workspace, including the person changed.
  useMembersRealtime(workspaceId, () =>
    queryClient.invalidateQueries({ queryKey: workspaceKeys.detail(workspaceId) }),
  )
  if (blocked) return <TwoFactorRequired name={blocked.name} />
  // Removed from the workspace (or it was deleted) while looking at it.
  if (workspace.data === null) return <Navigate to="/workspaces" replace />
  if (!workspace.data) return <PageSkeleton />
  const context: WorkspaceContext = { workspace: workspace.data, userId }
  return (
    <AppShell
      title={workspace.data.name}
      header={<WorkspaceSwitcher current={workspace.data} />}
      nav={sections.map((s) => (
        <NavItem key={s.path} to={`/w/${workspaceId}/${s.path}`} icon={s.icon} label={s.label} />
      ))}
      footer={
        <div className="flex items-center gap-1">
          <div className="min-w-0 flex-1">
            <UserMenu onSignedOut={() => navigate('/sign-in')} />
          </div>
          <ThemeToggle />
        </div>
      }
    >
      <Outlet context={context} />
    </AppShell>
  )
}
