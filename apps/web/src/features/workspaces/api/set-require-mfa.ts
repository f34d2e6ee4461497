import { useMutation, useQueryClient } from '@tanstack/react-query'
import { toast } from 'sonner'
import { supabase } from '@/lib/supabase'
import { workspaceKeys } from './keys'

/** Owners only; the database refuses to turn it on from a session without a second factor. */
export async function setRequireMfa({ id, requireMfa }: { id: string; requireMfa: boolean }) {
  const { error } = await supabase
    .from('workspaces')
    .update({ require_mfa: requireMfa })
    .eq('id', id)
    .select('id')
    .single()
  if (error) throw error
}

export function useSetRequireMfa() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: setRequireMfa,
    onSuccess: (_, { requireMfa }) => {
      toast.success(
        requireMfa ? 'Two-factor sign-in is now required' : 'Two-factor sign-in is now optional',
      )
      return queryClient.invalidateQueries({ queryKey: workspaceKeys.all })
    },
  })
}
