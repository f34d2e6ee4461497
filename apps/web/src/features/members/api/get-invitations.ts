import { queryOptions, useQuery } from '@tanstack/react-query'
import { supabase } from '@/lib/supabase'
import { memberKeys } from './keys'

/**
 * Invitations not yet accepted, newest first, each with its link's token (owners only: RLS
 * shows others neither).
 */
export async function getInvitations(workspaceId: string, signal: AbortSignal) {
  const { data, error } = await supabase
    .from('workspace_invitations')
    .select('id, email, role, created_at, expires_at, secret:workspace_invitation_tokens(token)')
    .eq('workspace_id', workspaceId)
    .is('accepted_at', null)
    .order('created_at', { ascending: false })
    .abortSignal(signal)
  if (error) throw error
  return data.map(({ secret, ...invitation }) => ({ ...invitation, token: secret?.token ?? null }))
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
