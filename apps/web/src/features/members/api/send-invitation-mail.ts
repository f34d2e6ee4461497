import { supabase } from '@/lib/supabase'
import { invitationLink } from '../utils/invitation-link'

/**
 * Mails the invitee a sign-in link that lands on the invitation. Only people who already
 * have an account get one (the app never creates accounts for others); the rest need the
 * link shared by hand. Returns whether a mail went out.
 */
export async function sendInvitationMail(email: string, token: string): Promise<boolean> {
  const { error } = await supabase.auth.signInWithOtp({
    email,
    options: { shouldCreateUser: false, emailRedirectTo: invitationLink(token) },
  })
  return !error
}
