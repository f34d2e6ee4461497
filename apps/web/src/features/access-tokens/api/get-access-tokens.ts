import { queryOptions, useQuery } from '@tanstack/react-query'
import { supabase } from '@/lib/supabase'
import { accessTokenKeys } from './keys'

/** The signed-in person's tokens for a workspace, newest first (RLS shows only their own). */
export async function getAccessTokens(workspaceId: string, signal: AbortSignal) {
  const { data, error } = await supabase
    .from('access_tokens')
    .select('id, name, scope, prefix, created_at, expires_at, last_used_at, revoked_at')
    .eq('workspace_id', workspaceId)
    .order('created_at', { ascending: false })
    .abortSignal(signal)
  if (error) throw error
  return data
}

export type AccessToken = Awaited<ReturnType<typeof getAccessTokens>>[number]

export const getAccessTokensQueryOptions = (workspaceId: string) =>
  queryOptions({
    queryKey: accessTokenKeys.list(workspaceId),
    queryFn: ({ signal }) => getAccessTokens(workspaceId, signal),
  })

export function useAccessTokens(workspaceId: string) {
  return useQuery(getAccessTokensQueryOptions(workspaceId))
}
