import { type LoaderFunctionArgs, redirect } from 'react-router'
import { getWorkspacesQueryOptions } from '@/features/workspaces/api/get-workspaces'
import { lastWorkspace } from '@/features/workspaces/utils/last-workspace'
import { queryClient } from '@/lib/query-client'
import { requireSession } from '../session'

/** `/` opens the workspace used last, or the list of workspaces. */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireSession(request)
  const workspaces = await queryClient.ensureQueryData(getWorkspacesQueryOptions())
  const last = lastWorkspace.get()
  const target =
    workspaces.find((w) => w.id === last) ?? (workspaces.length === 1 ? workspaces[0] : null)
  throw redirect(target ? `/w/${target.id}` : '/workspaces')
}

export default function HomeRoute() {
  return null
}
