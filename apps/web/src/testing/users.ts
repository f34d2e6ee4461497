import { mailboxUrl } from '@/config/env'
import { supabase } from '@/lib/supabase'

let counter = 0

/** A fresh address per call, so tests never collide on the shared localbase. */
export function uniqueEmail(name = 'user') {
  counter += 1
  return `${name}-${Date.now().toString(36)}-${counter}@example.com`
}

export const PASSWORD = 'correct horse battery staple'

type Mail = { subject: string; link: string }

/** The dev mailbox's messages to `email`, newest first (Node's fetch: no CORS here). */
export async function mailsTo(email: string): Promise<Mail[]> {
  const res = await fetch(`${mailboxUrl}/messages?email=${encodeURIComponent(email)}`)
  return (await res.json()) as Mail[]
}

/**
 * Opens the newest confirmation link mailed to `email` and signs the app's client in with
 * the session its redirect carries, as the app does when it lands.
 */
export async function confirmByMail(email: string) {
  const mail = (await mailsTo(email)).find((m) => m.link.includes('type=signup'))
  if (!mail) throw new Error(`no confirmation mail for ${email}`)
  const res = await fetch(mail.link, { redirect: 'manual' })
  const fragment = new URLSearchParams(new URL(res.headers.get('location')!).hash.slice(1))
  const { data, error } = await supabase.auth.setSession({
    access_token: fragment.get('access_token') ?? '',
    refresh_token: fragment.get('refresh_token') ?? '',
  })
  if (error) throw error
  return data.session!
}

/** Signs a new person up through the app's client and confirms them by mail: signed in. */
export async function signUpAs(name = 'user', email = uniqueEmail(name)) {
  const { data, error } = await supabase.auth.signUp({
    email,
    password: PASSWORD,
    options: { data: { display_name: name } },
  })
  if (error) throw error
  if (data.session) throw new Error('expected sign-up to wait for a confirmed address')
  const session = await confirmByMail(email)
  return { email, userId: session.user.id }
}

export async function signInAs(email: string) {
  const { error } = await supabase.auth.signInWithPassword({ email, password: PASSWORD })
  if (error) throw error
}

export async function signOutLocally() {
  await supabase.auth.signOut({ scope: 'local' })
}

/**
 * The signed-in owner invites `email` to the workspace; returns the token of the link,
 * which owners read from its own table. No mail: tests accept with the token directly.
 */
export async function inviteByEmail(workspaceId: string, email: string, role = 'viewer') {
  const { data, error } = await supabase
    .from('workspace_invitations')
    .insert({ workspace_id: workspaceId, email, role })
    .select('id')
    .single()
  if (error) throw error
  const secret = await supabase
    .from('workspace_invitation_tokens')
    .select('token')
    .eq('invitation_id', data.id)
    .single()
  if (secret.error) throw secret.error
  return secret.data.token
}
