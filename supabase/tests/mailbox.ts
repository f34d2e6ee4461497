import { createClient, type SupabaseClient } from '@supabase/supabase-js'
import { DEFAULT_ANON_KEY } from '../../packages/localbase/src/index.ts'

// Accounts signed up through Auth, as a person does it: the sign-up, then the link in the
// confirmation mail, read from localbase's dev mailbox.

export type Mail = { to: string; subject: string; text: string; link: string; created_at: string }

const noSession = { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false }

/** The dev mailbox's messages to `email`, newest first. */
export async function mailsTo(url: string, email: string): Promise<Mail[]> {
  const res = await fetch(`${url}/auth/v1/mailbox/messages?email=${encodeURIComponent(email)}`)
  if (!res.ok) throw new Error(`the mailbox answered ${res.status}`)
  return (await res.json()) as Mail[]
}

/** Follows a mailed link as a browser would, stopping at the redirect to the app. */
export async function followLink(link: string): Promise<URL> {
  const res = await fetch(link, { redirect: 'manual' })
  const location = res.headers.get('location')
  if (res.status !== 303 || !location) throw new Error(`the link answered ${res.status}`)
  return new URL(location)
}

/**
 * Opens the newest confirmation mail's link and signs `client` in with the session the
 * redirect carries in its fragment, as the app does on landing.
 */
export async function confirmByMail(client: SupabaseClient, url: string, email: string) {
  const mail = (await mailsTo(url, email)).find((m) => m.link.includes('type=signup'))
  if (!mail) throw new Error(`no confirmation mail for ${email}`)
  const fragment = new URLSearchParams((await followLink(mail.link)).hash.slice(1))
  const { data, error } = await client.auth.setSession({
    access_token: fragment.get('access_token') ?? '',
    refresh_token: fragment.get('refresh_token') ?? '',
  })
  if (error) throw error
  return data.session!
}

/** A new account, signed up and confirmed through the mail, with its signed-in client. */
export async function signUpByMail(
  url: string,
  email: string,
  { password = 'long enough password', data = {} as Record<string, unknown> } = {},
): Promise<{ client: SupabaseClient; id: string }> {
  const client = createClient(url, DEFAULT_ANON_KEY, { auth: noSession })
  const signUp = await client.auth.signUp({ email, password, options: { data } })
  if (signUp.error) throw signUp.error
  if (signUp.data.session) throw new Error('sign-up returned a session: confirmations are off')
  const session = await confirmByMail(client, url, email)
  return { client, id: session.user.id }
}
