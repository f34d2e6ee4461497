import { rmSync } from 'node:fs'
import { createClient, type SupabaseClient } from '@supabase/supabase-js'
import { decodeJwt } from 'jose'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DEFAULT_ANON_KEY } from '../src/config/keys.ts'
import { copyFixture, startTestStack, type TestStack } from './helpers.ts'
import { type Inbox, type Received, sendMailTo, startInbox } from './smtp-inbox.ts'

// Auth mail over real SMTP: localbase is configured the way the Supabase CLI reads it
// ([auth.email.smtp] in config.toml, the credentials as env() references) and sends to an
// SMTP server started here. The fixture has confirmations on; its site URL is
// http://app.example.test:3000.

const credentials = { user: 'mailer', pass: 'smtp-secret' }
const from = { name: 'Sourcebook', address: 'noreply@sourcebook.test' }
const noSession = { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false }
const password = 'long-enough-password'

let inbox: Inbox
let stack: TestStack
let project: string
beforeAll(async () => {
  inbox = await startInbox(credentials)
  project = copyFixture('auth-confirm')
  // The credentials as env() references, resolved from the server's environment.
  sendMailTo(project, inbox, { user: 'env(TEST_SMTP_USER)', pass: 'env(TEST_SMTP_PASS)' }, from)
  stack = await startTestStack(project, {
    env: { SMTP_HOST: '', TEST_SMTP_USER: credentials.user, TEST_SMTP_PASS: credentials.pass },
  })
})
afterAll(async () => {
  await stack?.stop()
  await inbox?.close()
  rmSync(project, { recursive: true, force: true })
})

let counter = 0
const newEmail = () => `smtp${++counter}-${Date.now()}@example.com`
const client = (): SupabaseClient => createClient(stack.url, DEFAULT_ANON_KEY, { auth: noSession })
const admin = () => stack.admin().auth.admin

/** The one mail an address received. */
function mailTo(address: string): Received {
  const mails = inbox.to(address)
  expect(mails).toHaveLength(1)
  return mails[0]!
}

/** Follows a mailed link as a browser would; the redirect's fragment. */
async function follow(link: string): Promise<URLSearchParams> {
  const res = await fetch(link, { redirect: 'manual' })
  expect(res.status).toBe(303)
  const location = new URL(res.headers.get('location')!)
  expect(location.origin).toBe('http://app.example.test:3000')
  return new URLSearchParams(location.hash.slice(1))
}

async function confirmedUser(): Promise<{ id: string; email: string }> {
  const email = newEmail()
  const { data, error } = await admin().createUser({ email, password, email_confirm: true })
  expect(error).toBeNull()
  return { id: data.user!.id, email }
}

describe('mail over SMTP', () => {
  it('confirms a sign-up through the link in the mail it was sent', async () => {
    const email = newEmail()
    const signUp = await client().auth.signUp({ email, password })
    expect(signUp.error).toBeNull()
    expect(signUp.data.session).toBeNull()

    const mail = mailTo(email)
    expect(mail).toMatchObject({ from, to: [email], subject: 'Confirm Your Signup' })
    expect(mail.html).toContain(`href="${mail.link.replaceAll('&', '&#38;')}"`)
    expect(inbox.logins.at(-1)).toEqual({ username: credentials.user, password: credentials.pass })

    const fragment = await follow(mail.link)
    expect(fragment.get('type')).toBe('signup')
    const browser = client()
    const { data, error } = await browser.auth.setSession({
      access_token: fragment.get('access_token')!,
      refresh_token: fragment.get('refresh_token')!,
    })
    expect(error).toBeNull()
    expect(data.user).toMatchObject({ id: signUp.data.user!.id, email })
    expect(data.user!.email_confirmed_at).toBeTruthy()
    expect((await client().auth.signInWithPassword({ email, password })).error).toBeNull()
  })

  it('sends magic links, recovery and invites from the admin address, each link working', async () => {
    const magic = await confirmedUser()
    expect((await client().auth.signInWithOtp({ email: magic.email })).error).toBeNull()
    const recovering = await confirmedUser()
    expect((await client().auth.resetPasswordForEmail(recovering.email)).error).toBeNull()
    const invited = newEmail()
    const invite = await admin().inviteUserByEmail(invited)
    expect(invite.error).toBeNull()

    for (const [who, subject, type] of [
      [magic, 'Your Magic Link', 'magiclink'],
      [recovering, 'Reset Your Password', 'recovery'],
      [{ id: invite.data.user!.id, email: invited }, 'You have been invited', 'invite'],
    ] as const) {
      const mail = mailTo(who.email)
      expect(mail).toMatchObject({ from, to: [who.email], subject })
      const fragment = await follow(mail.link)
      expect(fragment.get('type')).toBe(type)
      expect(decodeJwt(fragment.get('access_token')!).sub).toBe(who.id)
    }
  })

  it('mails an email change to both addresses; it completes with both links', async () => {
    const user = await confirmedUser()
    const browser = client()
    await browser.auth.signInWithPassword({ email: user.email, password })
    const next = newEmail()
    const { data, error } = await browser.auth.updateUser({ email: next })
    expect(error).toBeNull()
    expect(data.user).toMatchObject({ email: user.email, new_email: next })

    const toNew = mailTo(next)
    const toOld = mailTo(user.email)
    for (const mail of [toNew, toOld]) {
      expect(mail).toMatchObject({ from, subject: 'Confirm Email Change' })
      expect(mail.text).toContain(`from ${user.email} to ${next}`)
    }
    expect((await follow(toNew.link)).get('message')).toMatch(/^Confirmation link accepted/)
    const fragment = await follow(toOld.link)
    expect(decodeJwt(fragment.get('access_token')!).email).toBe(next)
    expect((await admin().getUserById(user.id)).data.user!.email).toBe(next)
  })
})

describe('when the SMTP server refuses the mail', () => {
  const refused = async <T>(action: () => Promise<T>): Promise<T> => {
    inbox.refuse = 'Mailbox unavailable'
    try {
      return await action()
    } finally {
      inbox.refuse = null
    }
  }
  const count = async (sql: string, params: unknown[]) =>
    (await stack.db.pg.query<{ n: number }>(`select count(*)::int as n from ${sql}`, params))
      .rows[0]!.n

  it('answers as GoTrue does, and no user is created for a sign-up or an invite', async () => {
    const email = newEmail()
    const wire = await refused(() =>
      fetch(`${stack.url}/auth/v1/signup`, {
        method: 'POST',
        headers: {
          apikey: DEFAULT_ANON_KEY,
          'content-type': 'application/json',
          'x-supabase-api-version': '2024-01-01',
        },
        body: JSON.stringify({ email, password }),
      }),
    )
    expect(wire.status).toBe(500)
    expect(wire.headers.get('x-sb-error-code')).toBe('unexpected_failure')
    expect(await wire.json()).toEqual({
      code: 'unexpected_failure',
      message: 'Error sending confirmation email',
    })
    // supabase-js reports any 5xx as retryable, with GoTrue's message.
    const signUp = await refused(() => client().auth.signUp({ email, password }))
    expect(signUp.error).toMatchObject({
      name: 'AuthRetryableFetchError',
      status: 500,
      message: 'Error sending confirmation email',
    })
    const invited = newEmail()
    const invite = await refused(() => admin().inviteUserByEmail(invited))
    expect(invite.error).toMatchObject({ status: 500, message: 'Error sending invite email' })
    expect(await count('auth.users where email = any($1)', [[email, invited]])).toBe(0)
    expect(inbox.to(email)).toEqual([])

    // Nothing was left to get in the way: the same sign-up goes through once mail does.
    expect((await client().auth.signUp({ email, password })).error).toBeNull()
    expect(mailTo(email).subject).toBe('Confirm Your Signup')
  })

  it('stores no token for a magic link or a recovery that could not be sent', async () => {
    const user = await confirmedUser()
    const magic = await refused(() => client().auth.signInWithOtp({ email: user.email }))
    expect(magic.error).toMatchObject({ status: 500, message: 'Error sending magic link email' })
    const recovery = await refused(() => client().auth.resetPasswordForEmail(user.email))
    expect(recovery.error).toMatchObject({ status: 500, message: 'Error sending recovery email' })
    expect(await count('auth.one_time_tokens where user_id = $1', [user.id])).toBe(0)
    expect(
      await count('auth.users where id = $1 and recovery_sent_at is not null', [user.id]),
    ).toBe(0)
  })

  it('records no pending email change', async () => {
    const user = await confirmedUser()
    const browser = client()
    await browser.auth.signInWithPassword({ email: user.email, password })
    const change = await refused(() => browser.auth.updateUser({ email: newEmail() }))
    expect(change.error).toMatchObject({ status: 500, message: 'Error sending email change email' })
    const { data } = await browser.auth.getUser()
    expect(data.user!.email).toBe(user.email)
    expect(data.user).not.toHaveProperty('new_email')
    expect(await count('auth.one_time_tokens where user_id = $1', [user.id])).toBe(0)
  })
})
