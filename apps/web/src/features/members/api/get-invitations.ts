import { queryOptions, useQuery } from '@tanstack/react-query'
import { supabase } from '@/lib/supabase'
import { memberKeys } from './keys'

/** Invitations not yet accepted, newest first (owners only: RLS shows others nothing). */
export async function getInvitations(workspaceId: string, signal: AbortSignal) {
  const { data, error } = await supabase
    .from('workspace_invitations')
    .select('id, email, role, token, created_at, expires_at')
    .eq('workspace_id', workspaceId)
    .is('accepted_at', null)
    .order('created_at', { ascending: false })
    .abortSignal(signal)
  if (error) throw error
  return data
}

export type Invitation = Awaited<ReturnType<typeof getInvitations>>[number]

export const getInvitationsQueryOptions = (workspaceId: string) =>
  queryOptions({
    queryKey: memberKeys.invitations(workspaceId),
    queryFn: ({ signal }) => getInvitations(workspaceId, signal),
  })

export function useInvitations(workspaceId: string, { enabled = true } = {}) {
  return useQuery({ ...getInvitationsQueryOptions(workspaceId), enabled })
}
