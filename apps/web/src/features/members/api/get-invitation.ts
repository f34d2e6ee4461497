import { queryOptions, useQuery } from '@tanstack/react-query'
import { supabase } from '@/lib/supabase'
import { memberKeys } from './keys'

/** What an invitation link offers, readable with the token alone; null when unknown. */
export async function getInvitation(token: string, signal: AbortSignal) {
  const { data, error } = await supabase
    .rpc('get_invitation', { invitation_token: token })
    .abortSignal(signal)
  if (error) throw error
  return data[0] ?? null
}

export type InvitationPreview = NonNullable<Awaited<ReturnType<typeof getInvitation>>>

export const getInvitationQueryOptions = (token: string) =>
  queryOptions({
    queryKey: memberKeys.invitation(token),
    queryFn: ({ signal }) => getInvitation(token, signal),
  })

export function useInvitation(token: string) {
  return useQuery(getInvitationQueryOptions(token))
}
