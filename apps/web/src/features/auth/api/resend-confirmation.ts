import { useMutation } from '@tanstack/react-query'
import { supabase } from '@/lib/supabase'

/** Mails the sign-up confirmation link again; its link lands on `redirectTo`, signed in. */
export async function resendConfirmation(email: string, redirectTo: string) {
  const { error } = await supabase.auth.resend({
    type: 'signup',
    email,
    options: { emailRedirectTo: redirectTo },
  })
  if (error) throw error
}

export function useResendConfirmation(redirectTo: string) {
  return useMutation({ mutationFn: (email: string) => resendConfirmation(email, redirectTo) })
}
