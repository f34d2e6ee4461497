import { render } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { createMemoryRouter, RouterProvider } from 'react-router'
import { AppProvider } from '@/app/provider'
import { routes } from '@/app/router'
import { queryClient } from '@/lib/query-client'

/** Renders the whole app, routes and all, at `path`, as a browser would. */
export function renderApp(path: string) {
  queryClient.clear()
  const router = createMemoryRouter(routes, { initialEntries: [path] })
  const user = userEvent.setup()
  const view = render(
    <AppProvider>
      <RouterProvider router={router} />
    </AppProvider>,
  )
  return { ...view, router, user }
}
