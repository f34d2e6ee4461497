import { useMutation } from '@tanstack/react-query'
import type { z } from 'zod'
import { supabase } from '@/lib/supabase'
import { newPasswordSchema } from './update-password'
import { displayNameSchema } from './update-display-name'

export const completeAccountSchema = newPasswordSchema.and(displayNameSchema)

export type CompleteAccountInput = z.infer<typeof completeAccountSchema>

/**
 * Finishes an account an invitation created: the person's name (on their profile, where
 * members see it, and in their metadata) and the password they will sign in with.
 */
export async function completeAccount({ displayName, password }: CompleteAccountInput) {
  const { data, error } = await supabase.auth.updateUser({
    password,
    data: { display_name: displayName },
  })
  if (error) throw error
  const profile = await supabase
    .from('profiles')
    .update({ display_name: displayName })
    .eq('id', data.user.id)
  if (profile.error) throw profile.error
}

export function useCompleteAccount() {
  return useMutation({ mutationFn: completeAccount })
}
