import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { RouterProvider } from 'react-router/dom'
import { AppProvider } from './app/provider'
import { syncRouterWithAuth } from './app/auth-sync'
import { createAppRouter } from './app/router'
import './index.css'

const router = createAppRouter()
syncRouterWithAuth(router)

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <AppProvider>
      <RouterProvider router={router} />
    </AppProvider>
  </StrictMode>,
)
