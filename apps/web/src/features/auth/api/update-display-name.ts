import { useMutation, useQueryClient } from '@tanstack/react-query'
import { z } from 'zod'
import { supabase } from '@/lib/supabase'

export const displayNameSchema = z.object({
  displayName: z.string().trim().min(1, 'Enter your name').max(100, 'Keep it under 100 characters'),
})

export type DisplayNameInput = z.infer<typeof displayNameSchema>

/**
 * Sets the name fellow members see (the profile) and the one the session carries (user
 * metadata, which also records that the person chose it rather than inheriting their
 * email's first half).
 */
export async function updateDisplayName({ displayName }: DisplayNameInput) {
  const { data, error } = await supabase.auth.updateUser({ data: { display_name: displayName } })
  if (error) throw error
  const profile = await supabase
    .from('profiles')
    .update({ display_name: displayName })
    .eq('id', data.user.id)
  if (profile.error) throw profile.error
}

export function useUpdateDisplayName() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: updateDisplayName,
    // Every list that shows people reads profiles; none may keep the old name.
    onSuccess: () => queryClient.invalidateQueries(),
  })
}
