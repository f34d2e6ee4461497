import { useMutation } from '@tanstack/react-query'
import { z } from 'zod'
import { supabase } from '@/lib/supabase'

export const magicLinkSchema = z.object({ email: z.email('Enter a valid email address') })

export type MagicLinkInput = z.infer<typeof magicLinkSchema>

export async function sendMagicLink({ email }: MagicLinkInput, redirectTo: string) {
  const { error } = await supabase.auth.signInWithOtp({
    email,
    options: { emailRedirectTo: redirectTo, shouldCreateUser: false },
  })
  if (error) throw error
}

export function useSendMagicLink(redirectTo: string) {
  return useMutation({ mutationFn: (input: MagicLinkInput) => sendMagicLink(input, redirectTo) })
}
