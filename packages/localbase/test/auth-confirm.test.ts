import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestStack, type TestStack } from './helpers.ts'

// With [auth.email] enable_confirmations = true: signup returns a bare user and mails a
// confirmation; duplicates are obfuscated (trap 16). Email changes: auth-email-change.test.ts.

let stack: TestStack
beforeAll(async () => {
  stack = await startTestStack('auth-confirm')
})
afterAll(() => stack?.stop())

let counter = 0
const newEmail = () => `confirm${++counter}-${Date.now()}@example.com`
const password = 'long-enough-password'

type Mail = { subject: string; text: string; link: string; to: string }
async function mailsFor(email: string): Promise<Mail[]> {
  const res = await fetch(
    `${stack.url}/auth/v1/mailbox/messages?email=${encodeURIComponent(email)}`,
  )
  return res.json()
}
const codeOf = (mail: Mail) => /code: (\d{6})/.exec(mail.text)![1]!

describe('signup with confirmations', () => {
  it('returns a user without a session and mails a confirmation link', async () => {
    const email = newEmail()
    const { data, error } = await stack.client().auth.signUp({ email, password })
    expect(error).toBeNull()
    expect(data.session).toBeNull()
    expect(data.user).toMatchObject({ email, role: 'authenticated' })
    expect(data.user!.email_confirmed_at).toBeUndefined()
    expect(data.user!.confirmation_sent_at).toBeTruthy()
    const mails = await mailsFor(email)
    expect(mails.map((m) => m.subject)).toEqual(['Confirm Your Signup'])

    const early = await stack.client().auth.signInWithPassword({ email, password })
    expect(early.error).toMatchObject({ status: 400, code: 'email_not_confirmed' })

    const res = await fetch(mails[0]!.link, { redirect: 'manual' })
    expect(res.status).toBe(303)
    const location = new URL(res.headers.get('location')!)
    expect(location.origin).toBe('http://app.example.test:3000')
    const fragment = new URLSearchParams(location.hash.slice(1))
    expect(fragment.get('type')).toBe('signup')
    expect(fragment.get('access_token')).toBeTruthy()

    const later = await stack.client().auth.signInWithPassword({ email, password })
    expect(later.error).toBeNull()
    expect(later.data.user!.email_confirmed_at).toBeTruthy()
  })

  it('resends the confirmation for an unconfirmed duplicate, and via resend()', async () => {
    const email = newEmail()
    const first = await stack.client().auth.signUp({ email, password })
    const again = await stack.client().auth.signUp({ email, password })
    expect(again.error).toBeNull()
    expect(again.data.user!.id).toBe(first.data.user!.id)
    expect((await stack.client().auth.resend({ type: 'signup', email })).error).toBeNull()
    expect(await mailsFor(email)).toHaveLength(3)
  })

  it('answers a duplicate of a confirmed user with an obfuscated 200', async () => {
    const email = newEmail()
    const first = await stack.client().auth.signUp({ email, password })
    await stack.client().auth.verifyOtp({
      email,
      token: codeOf((await mailsFor(email))[0]!),
      type: 'signup',
    })
    const res = await fetch(`${stack.url}/auth/v1/signup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-supabase-api-version': '2024-01-01' },
      body: JSON.stringify({ email, password, data: { x: 1 } }),
    })
    expect(res.status).toBe(200)
    const fake = await res.json()
    expect(fake.id).not.toBe(first.data.user!.id)
    expect(fake).toMatchObject({ email, identities: [], user_metadata: { x: 1 }, role: '' })
    expect(fake).not.toHaveProperty('access_token')
    expect(fake).not.toHaveProperty('email_confirmed_at')
  })

  it('uses the configured minimum password length', async () => {
    const { error } = await stack.client().auth.signUp({ email: newEmail(), password: 'ninechars' })
    expect(error).toMatchObject({ code: 'weak_password' })
    expect(error!.message).toBe('Password should be at least 10 characters.')
  })

  it('refuses anonymous sign-in when it is off, and says so in /settings', async () => {
    const { error } = await stack.client().auth.signInAnonymously()
    expect(error).toMatchObject({ status: 422, code: 'anonymous_provider_disabled' })
    const settings = await (await fetch(`${stack.url}/auth/v1/settings`)).json()
    expect(settings).toMatchObject({
      mailer_autoconfirm: false,
      external: { anonymous_users: false },
    })
  })
})
