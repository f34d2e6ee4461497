import { useMutation } from '@tanstack/react-query'
import { z } from 'zod'
import { supabase } from '@/lib/supabase'

export const newPasswordSchema = z
  .object({
    password: z.string().min(8, 'Use at least 8 characters'),
    confirm: z.string(),
  })
  .refine((value) => value.password === value.confirm, {
    path: ['confirm'],
    message: 'The passwords don’t match',
  })

export type NewPasswordInput = z.infer<typeof newPasswordSchema>

export async function updatePassword({ password }: NewPasswordInput) {
  const { error } = await supabase.auth.updateUser({ password })
  if (error) throw error
}

export function useUpdatePassword() {
  return useMutation({ mutationFn: updatePassword })
}
