import { useMutation, useQueryClient } from '@tanstack/react-query'
import { z } from 'zod'
import { supabase } from '@/lib/supabase'
import { accountKeys } from './keys'

export const changeEmailSchema = z.object({ email: z.email('Enter a valid email address') })

export type ChangeEmailInput = z.infer<typeof changeEmailSchema>

/**
 * Asks Auth to move the account to a new address. Nothing changes until the link mailed to
 * the new address (and, with double confirmation, the one mailed to the current address)
 * is opened; the link brings the person back to the account page.
 */
export async function changeEmail({ email }: ChangeEmailInput) {
  const { error } = await supabase.auth.updateUser(
    { email },
    { emailRedirectTo: `${window.location.origin}/account` },
  )
  if (error) throw error
}

export function useChangeEmail() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: changeEmail,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: accountKeys.all }),
  })
}
