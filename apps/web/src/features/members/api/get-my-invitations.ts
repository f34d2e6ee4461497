import { queryOptions, useQuery } from '@tanstack/react-query'
import { supabase } from '@/lib/supabase'
import { memberKeys } from './keys'

/**
 * Pending invitations to the signed-in person's confirmed address, newest first. They
 * carry no token: joining takes the link from the invitation mail.
 */
export async function getMyInvitations(signal: AbortSignal) {
  const { data, error } = await supabase.rpc('my_invitations').abortSignal(signal)
  if (error) throw error
  return data
}

export const getMyInvitationsQueryOptions = () =>
  queryOptions({
    queryKey: memberKeys.mine(),
    queryFn: ({ signal }) => getMyInvitations(signal),
  })

export function useMyInvitations() {
  return useQuery(getMyInvitationsQueryOptions())
}
