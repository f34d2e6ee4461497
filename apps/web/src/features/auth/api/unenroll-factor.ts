import { useMutation } from '@tanstack/react-query'
import { queryClient } from '@/lib/query-client'
import { supabase } from '@/lib/supabase'

/** Removes an authenticator app; Auth asks for a two-factor session to remove a verified one. */
export async function unenrollFactor(factorId: string) {
  const { error } = await supabase.auth.mfa.unenroll({ factorId })
  if (error) throw error
  // The session still says AAL2 until it is refreshed; refresh now so it says what is true.
  await supabase.auth.refreshSession()
}

export function useUnenrollFactor() {
  return useMutation({
    mutationFn: unenrollFactor,
    onSuccess: () => queryClient.invalidateQueries(),
  })
}
