import { useMutation, useQueryClient } from '@tanstack/react-query'
import { toast } from 'sonner'
import { supabase } from '@/lib/supabase'
import { authErrorMessage } from '../utils/auth-error-message'

export async function signOut() {
  const { error } = await supabase.auth.signOut()
  if (error) throw error
}

export function useSignOut({ onSuccess }: { onSuccess?: () => void } = {}) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: signOut,
    onSuccess: () => {
      // Nothing one person loaded may be shown to the next one on this device.
      queryClient.clear()
      onSuccess?.()
    },
    onError: (error) => toast.error(authErrorMessage(error)),
  })
}
