import { queryOptions, useQuery } from '@tanstack/react-query'
import { supabase } from '@/lib/supabase'
import { currentUserId } from './current-user-id'
import { workspaceKeys } from './keys'
import type { Workspace, WorkspaceRole } from './types'

/** The workspaces the signed-in user belongs to, with their role, by name. */
export async function getWorkspaces(signal: AbortSignal): Promise<Workspace[]> {
  const userId = await currentUserId()
  const { data, error } = await supabase
    .from('workspace_members')
    .select('role, workspace:workspaces!inner(*)')
    .eq('user_id', userId)
    .abortSignal(signal)
  if (error) throw error
  return data
    .map(({ role, workspace }) => ({ ...workspace, role: role as WorkspaceRole }))
    .sort((a, b) => a.name.localeCompare(b.name))
}

export const getWorkspacesQueryOptions = () =>
  queryOptions({ queryKey: workspaceKeys.list(), queryFn: ({ signal }) => getWorkspaces(signal) })

export function useWorkspaces() {
  return useQuery(getWorkspacesQueryOptions())
}
