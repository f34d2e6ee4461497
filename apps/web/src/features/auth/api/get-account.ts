import { queryOptions } from '@tanstack/react-query'
import { supabase } from '@/lib/supabase'
import { accountKeys } from './keys'

/**
 * The signed-in person as Auth knows them now (not the session's copy, which misses a
 * pending email change), with the name fellow members see on their profile.
 */
export async function getAccount(signal: AbortSignal) {
  const { data, error } = await supabase.auth.getUser()
  if (error) throw error
  const { user } = data
  const profile = await supabase
    .from('profiles')
    .select('display_name')
    .eq('id', user.id)
    .abortSignal(signal)
    .single()
  if (profile.error) throw profile.error
  return {
    id: user.id,
    email: user.email ?? '',
    /** The address an email change waits to confirm; null when none is pending. */
    newEmail: user.new_email ?? null,
    displayName: profile.data.display_name,
  }
}

export type Account = Awaited<ReturnType<typeof getAccount>>

export const getAccountQueryOptions = () =>
  queryOptions({ queryKey: accountKeys.user(), queryFn: ({ signal }) => getAccount(signal) })
