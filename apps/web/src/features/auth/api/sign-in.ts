import { useMutation } from '@tanstack/react-query'
import { z } from 'zod'
import { supabase } from '@/lib/supabase'

export const signInSchema = z.object({
  email: z.email('Enter a valid email address'),
  password: z.string().min(1, 'Enter your password'),
})

export type SignInInput = z.infer<typeof signInSchema>

export async function signIn(input: SignInInput) {
  const { data, error } = await supabase.auth.signInWithPassword(input)
  if (error) throw error
  return data
}

export function useSignIn() {
  return useMutation({ mutationFn: signIn })
}
