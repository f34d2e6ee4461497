import { useMutation } from '@tanstack/react-query'
import { z } from 'zod'
import { supabase } from '@/lib/supabase'

export const passwordResetSchema = z.object({ email: z.email('Enter a valid email address') })

export type PasswordResetInput = z.infer<typeof passwordResetSchema>

export async function requestPasswordReset({ email }: PasswordResetInput, redirectTo: string) {
  const { error } = await supabase.auth.resetPasswordForEmail(email, { redirectTo })
  if (error) throw error
}

export function useRequestPasswordReset(redirectTo: string) {
  return useMutation({
    mutationFn: (input: PasswordResetInput) => requestPasswordReset(input, redirectTo),
  })
}
