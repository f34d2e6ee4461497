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
 * way the link lands them signed in on the invitation, and the mail says who invites them
 * to what.
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
  await mailMagicLink(admin, invitation, redirectTo)
  return { sent: 'magiclink', email: invitation.email }
}

/**
 * A magic link to the invitation for someone who has an account. Auth fills a magic-link
 * mail's {{ .Data }} from the account's metadata only (signInWithOtp's `data` is for new
 * accounts), so the invitation's details go there for this one mail and are removed once it
 * is sent: the magic-link template (supabase/templates/magic-link.html) reads as an
 * invitation while they are there, as a sign-in link otherwise. Their names are the
 * template's own, apart from those an invitation to a new account leaves in its metadata.
 */
async function mailMagicLink(admin: SupabaseClient, invitation: Invitation, redirectTo: string) {
  // The account's id; the link this makes is replaced by the mailed one below.
  const found = await admin.auth.admin.generateLink({ type: 'magiclink', email: invitation.email })
  if (found.error) throw found.error
  const id = found.data.user.id
  const details = {
    invitation_workspace_name: invitation.workspaceName,
    invitation_role_with_article: withArticle(invitation.role),
    invitation_inviter_name: invitation.inviterName,
  }
  const set = await admin.auth.admin.updateUserById(id, { user_metadata: details })
  if (set.error) throw set.error
  try {
    const otp = await admin.auth.signInWithOtp({
      email: invitation.email,
      options: { shouldCreateUser: false, emailRedirectTo: redirectTo },
    })
    if (otp.error) throw otp.error
  } finally {
    // Null removes a key (Auth merges metadata); a failure here leaves a later sign-in mail
    // reading as this invitation, so it is reported rather than ignored.
    const cleared = Object.fromEntries(Object.keys(details).map((key) => [key, null]))
    const reset = await admin.auth.admin.updateUserById(id, { user_metadata: cleared })
    if (reset.error)
      console.error(`send-invitation: metadata left on ${id}: ${reset.error.message}`)
  }
}
