import './lib/zod-config'
import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { RouterProvider } from 'react-router/dom'
import { AppProvider } from './app/provider'
import { createAppRouter } from './app/router'
import './index.css'

const router = createAppRouter()
// supabase-js arrives with the first route's code, not in the first download.
void import('./app/auth-sync').then(({ syncRouterWithAuth }) => syncRouterWithAuth(router))

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <AppProvider>
      <RouterProvider router={router} />
    </AppProvider>
  </StrictMode>,
)
