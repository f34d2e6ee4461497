import { queryOptions, useQuery } from '@tanstack/react-query'
import { supabase } from '@/lib/supabase'
import { currentUserId } from './current-user-id'
import { workspaceKeys } from './keys'
import type { Workspace, WorkspaceRole } from './types'

/** One workspace with the signed-in user's role; null when it is gone or not theirs. */
export async function getWorkspace(
  workspaceId: string,
  signal: AbortSignal,
): Promise<Workspace | null> {
  const userId = await currentUserId()
  const { data, error } = await supabase
    .from('workspace_members')
    .select('role, workspace:workspaces!inner(*)')
    .eq('user_id', userId)
    .eq('workspace_id', workspaceId)
    .abortSignal(signal)
    .maybeSingle()
  if (error) {
    // A malformed id is simply a workspace that does not exist.
    if (error.code === '22P02') return null
    throw error
  }
  return data ? { ...data.workspace, role: data.role as WorkspaceRole } : null
}

export const getWorkspaceQueryOptions = (workspaceId: string) =>
  queryOptions({
    queryKey: workspaceKeys.detail(workspaceId),
    queryFn: ({ signal }) => getWorkspace(workspaceId, signal),
  })

export function useWorkspace(workspaceId: string) {
  return useQuery(getWorkspaceQueryOptions(workspaceId))
}
