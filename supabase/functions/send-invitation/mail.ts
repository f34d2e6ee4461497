import type { SupabaseClient } from 'npm:@supabase/supabase-js@2.119.1'

export type Invitation = {
  email: string
  role: string
  token: string
  workspaceName: string
  inviterName: string
}

/** "an editor", "a viewer": the role as the mail's sentence names it. */
const withArticle = (role: string) => `${/^[aeiou]/.test(role) ? 'an' : 'a'} ${role}`

export type Sent = { sent: 'invite' | 'magiclink'; email: string }

/**
 * Mails the invitee a link to <origin>/invite/<token>. Someone without an account gets
 * Auth's invitation (the link signs them in to a new account); Auth refuses that for a
 * confirmed account with `email_exists`, and then they get a magic link instead. Either
 * way the link lands them signed in on the invitation.
 */
export async function mailInvitation(
  admin: SupabaseClient,
  invitation: Invitation,
  origin: string,
): Promise<Sent> {
  const redirectTo = `${origin}/invite/${invitation.token}`
  const { error } = await admin.auth.admin.inviteUserByEmail(invitation.email, {
    // The new account has no password yet: the page offers to choose one.
    redirectTo: `${redirectTo}?new_account=1`,
    // The invitation mail template (supabase/templates/invite.html) reads these as
    // {{ .Data.* }}. They become the new account's metadata, so none is `display_name`:
    // the person names themselves on the invitation page.
    data: {
      workspace_name: invitation.workspaceName,
      invited_role: invitation.role,
      role_with_article: withArticle(invitation.role),
      invited_by_name: invitation.inviterName,
    },
  })
  if (!error) return { sent: 'invite', email: invitation.email }
  if (error.code !== 'email_exists') throw error
  const otp = await admin.auth.signInWithOtp({
    email: invitation.email,
    options: { shouldCreateUser: false, emailRedirectTo: redirectTo },
  })
  if (otp.error) throw otp.error
  return { sent: 'magiclink', email: invitation.email }
}
