import { useMutation, useQueryClient } from '@tanstack/react-query'
import { supabase } from '@/lib/supabase'

/** Ends every session of this account, on every device, this one included. */
export async function signOutEverywhere() {
  const { error } = await supabase.auth.signOut({ scope: 'global' })
  if (error) throw error
}

export function useSignOutEverywhere({ onSuccess }: { onSuccess: () => void }) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: signOutEverywhere,
    onSuccess: () => {
      queryClient.clear()
      onSuccess()
    },
  })
}
