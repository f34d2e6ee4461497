import { useMutation } from '@tanstack/react-query'
import { z } from 'zod'
import { supabase } from '@/lib/supabase'

export const signUpSchema = z.object({
  displayName: z.string().trim().min(1, 'Enter your name').max(100, 'Keep it under 100 characters'),
  email: z.email('Enter a valid email address'),
  password: z.string().min(8, 'Use at least 8 characters'),
})

export type SignUpInput = z.infer<typeof signUpSchema>

export async function signUp({ displayName, email, password }: SignUpInput, redirectTo: string) {
  const { data, error } = await supabase.auth.signUp({
    email,
    password,
    options: { data: { display_name: displayName }, emailRedirectTo: redirectTo },
  })
  if (error) throw error
  return data
}

export function useSignUp(redirectTo: string) {
  return useMutation({ mutationFn: (input: SignUpInput) => signUp(input, redirectTo) })
}
