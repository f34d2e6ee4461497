import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createClient } from '@supabase/supabase-js'
import { decodeJwt } from 'jose'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DEFAULT_ANON_KEY } from '../src/config/keys.ts'
import { startTestStack, type TestStack } from './helpers.ts'

// Magic links, OTP codes, recovery, the redirect allow-list and the dev mailbox. The
// fixture's site_url is http://app.example.test:3000 and https://allowed.example.com/**
// is the one additional redirect URL.

let stack: TestStack
beforeAll(async () => {
  stack = await startTestStack('auth')
})
afterAll(() => stack?.stop())

let counter = 0
const newEmail = () => `mail${++counter}-${Date.now()}@example.com`

type Mail = {
  id: number
  to: string
  subject: string
  text: string
  html: string
  link: string
  created_at: string
}

async function mailsFor(email: string): Promise<Mail[]> {
  const res = await fetch(
    `${stack.url}/auth/v1/mailbox/messages?email=${encodeURIComponent(email)}`,
  )
  expect(res.status).toBe(200)
  return res.json()
}

const codeOf = (mail: Mail) => /code: (\d{6})/.exec(mail.text)![1]!

async function confirmedUser() {
  const email = newEmail()
  await stack
    .admin()
    .auth.admin.createUser({ email, password: 'correct-horse', email_confirm: true })
  return email
}

/** Follows a mailed link the way a browser would, without following the redirect. */
async function follow(link: string) {
  const res = await fetch(link, { redirect: 'manual' })
  expect(res.status).toBe(303)
  const location = new URL(res.headers.get('location')!)
  return { location, fragment: new URLSearchParams(location.hash.slice(1)) }
}

describe('sign-in with OTP', () => {
  it('creates a new user, mails a code, and verifyOtp returns a session', async () => {
    const email = newEmail()
    const client = stack.client()
    const sent = await client.auth.signInWithOtp({ email, options: { data: { plan: 'free' } } })
    expect(sent.error).toBeNull()
    const [mail] = await mailsFor(email)
    expect(mail).toMatchObject({ to: email, subject: 'Confirm Your Signup' })
    const { data, error } = await client.auth.verifyOtp({
      email,
      token: codeOf(mail!),
      type: 'email',
    })
    expect(error).toBeNull()
    expect(data.user).toMatchObject({ email, user_metadata: { plan: 'free' } })
    expect(data.user!.email_confirmed_at).toBeTruthy()
    expect(decodeJwt(data.session!.access_token).amr).toEqual([
      { method: 'otp', timestamp: expect.any(Number) },
    ])
    const profile = await client.from('profiles').select('id').single()
    expect(profile.data).toEqual({ id: data.user!.id })
  })

  it('mails a magic link to a confirmed user; the link redirects with the session', async () => {
    const email = await confirmedUser()
    const redirect = 'https://allowed.example.com/welcome'
    const sent = await stack
      .client()
      .auth.signInWithOtp({ email, options: { emailRedirectTo: redirect } })
    expect(sent.error).toBeNull()
    const [mail] = await mailsFor(email)
    expect(mail!.subject).toBe('Your Magic Link')
    const { location, fragment } = await follow(mail!.link)
    expect(`${location.origin}${location.pathname}`).toBe(redirect)
    expect([...fragment.keys()]).toEqual([
      'access_token',
      'expires_at',
      'expires_in',
      'refresh_token',
      'sb',
      'token_type',
      'type',
    ])
    expect(fragment.get('token_type')).toBe('bearer')
    expect(fragment.get('type')).toBe('magiclink')
    expect(fragment.get('expires_in')).toBe('3600')
    const { data, error } = await stack.client().auth.getUser(fragment.get('access_token')!)
    expect(error).toBeNull()
    expect(data.user!.email).toBe(email)

    // A link works once.
    const again = await follow(mail!.link)
    expect(Object.fromEntries(again.fragment)).toEqual({
      error: 'access_denied',
      error_code: 'otp_expired',
      error_description: 'Email link is invalid or has expired',
      sb: '',
    })
  })

  it('falls back to the site URL for a redirect that is not allowed', async () => {
    const email = await confirmedUser()
    await stack
      .client()
      .auth.signInWithOtp({ email, options: { emailRedirectTo: 'https://evil.example.net/steal' } })
    const [mail] = await mailsFor(email)
    expect(new URL(mail!.link).searchParams.get('redirect_to')).toBe('http://app.example.test:3000')
    const tampered = mail!.link.replace(
      /redirect_to=[^&]*/,
      `redirect_to=${encodeURIComponent('https://evil.example.net/steal')}`,
    )
    const { location, fragment } = await follow(tampered)
    expect(location.origin).toBe('http://app.example.test:3000')
    expect(fragment.get('access_token')).toBeTruthy()
  })

  it('refuses a wrong code with 403 otp_expired', async () => {
    const email = await confirmedUser()
    await stack.client().auth.signInWithOtp({ email })
    const code = codeOf((await mailsFor(email))[0]!)
    const wrong = code === '000000' ? '111111' : '000000'
    const { data, error } = await stack
      .client()
      .auth.verifyOtp({ email, token: wrong, type: 'magiclink' })
    expect(data.session).toBeNull()
    expect(error).toMatchObject({ status: 403, code: 'otp_expired' })
    expect(error!.message).toBe('Token has expired or is invalid')
  })

  it('refuses to create a user when shouldCreateUser is false', async () => {
    const email = newEmail()
    const { error } = await stack
      .client()
      .auth.signInWithOtp({ email, options: { shouldCreateUser: false } })
    expect(error).toMatchObject({ status: 422, code: 'otp_disabled' })
    expect(await mailsFor(email)).toEqual([])
  })
})

describe('PKCE links', () => {
  const pkceClient = () =>
    createClient(stack.url, DEFAULT_ANON_KEY, {
      auth: {
        flowType: 'pkce',
        persistSession: false,
        autoRefreshToken: false,
        detectSessionInUrl: false,
      },
    })

  it('redirects with ?code= and exchanges the code for a session once', async () => {
    const email = await confirmedUser()
    const client = pkceClient()
    const redirect = 'https://allowed.example.com/callback'
    await client.auth.signInWithOtp({ email, options: { emailRedirectTo: redirect } })
    const [mail] = await mailsFor(email)
    expect(new URL(mail!.link).searchParams.get('token')).toMatch(/^pkce_/)
    const res = await fetch(mail!.link, { redirect: 'manual' })
    expect(res.status).toBe(303)
    const location = new URL(res.headers.get('location')!)
    expect(`${location.origin}${location.pathname}`).toBe(redirect)
    expect(location.hash).toBe('')
    const code = location.searchParams.get('code')!
    const { data, error } = await client.auth.exchangeCodeForSession(code)
    expect(error).toBeNull()
    expect(data.user!.email).toBe(email)
    expect(decodeJwt(data.session!.access_token).amr).toEqual([
      { method: 'magiclink', timestamp: expect.any(Number) },
    ])
    // auth-js drops the verifier after use, so replay the exchange over the wire.
    const again = await fetch(`${stack.url}/auth/v1/token?grant_type=pkce`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-supabase-api-version': '2024-01-01' },
      body: JSON.stringify({ auth_code: code, code_verifier: 'v'.repeat(56) }),
    })
    expect(again.status).toBe(404)
    expect((await again.json()).code).toBe('flow_state_not_found')
  })

  it('refuses a code exchanged with the wrong verifier', async () => {
    const email = await confirmedUser()
    await pkceClient().auth.resetPasswordForEmail(email)
    const [mail] = await mailsFor(email)
    const res = await fetch(mail!.link, { redirect: 'manual' })
    const code = new URL(res.headers.get('location')!).searchParams.get('code')!
    const res2 = await fetch(`${stack.url}/auth/v1/token?grant_type=pkce`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-supabase-api-version': '2024-01-01' },
      body: JSON.stringify({ auth_code: code, code_verifier: 'x'.repeat(56) }),
    })
    expect(res2.status).toBe(400)
    expect((await res2.json()).code).toBe('bad_code_verifier')
  })
})

describe('password recovery', () => {
  it('mails a recovery link; its token hash signs in and the password can be changed', async () => {
    const email = await confirmedUser()
    const { error } = await stack.client().auth.resetPasswordForEmail(email, {
      redirectTo: 'https://allowed.example.com/reset',
    })
    expect(error).toBeNull()
    const [mail] = await mailsFor(email)
    expect(mail!.subject).toBe('Reset Your Password')
    const hash = new URL(mail!.link).searchParams.get('token')!
    const client = stack.client()
    const verified = await client.auth.verifyOtp({ token_hash: hash, type: 'recovery' })
    expect(verified.error).toBeNull()
    expect((await client.auth.updateUser({ password: 'recovered-pass' })).error).toBeNull()
    const signIn = await stack
      .client()
      .auth.signInWithPassword({ email, password: 'recovered-pass' })
    expect(signIn.error).toBeNull()
  })

  it('answers an unknown address the same way, without sending mail', async () => {
    const email = newEmail()
    const { error } = await stack.client().auth.resetPasswordForEmail(email)
    expect(error).toBeNull()
    expect(await mailsFor(email)).toEqual([])
  })
})

describe('invites', () => {
  it('mails an invite whose link signs the new user in', async () => {
    const email = newEmail()
    const { data, error } = await stack.admin().auth.admin.inviteUserByEmail(email, {
      data: { team: 'docs' },
    })
    expect(error).toBeNull()
    expect(data.user).toMatchObject({ email, user_metadata: { team: 'docs' } })
    expect(data.user!.invited_at).toBeTruthy()
    const [mail] = await mailsFor(email)
    expect(mail!.subject).toBe('You have been invited')
    const { fragment } = await follow(mail!.link)
    expect(fragment.get('type')).toBe('invite')
    expect(decodeJwt(fragment.get('access_token')!).sub).toBe(data.user!.id)
  })
})

describe('the dev mailbox', () => {
  it('lists messages newest first as JSON with all fields', async () => {
    const email = await confirmedUser()
    await stack.client().auth.resetPasswordForEmail(email)
    await stack.client().auth.signInWithOtp({ email })
    const mails = await mailsFor(email)
    expect(mails.map((m) => m.subject)).toEqual(['Your Magic Link', 'Reset Your Password'])
    expect(Object.keys(mails[0]!).sort()).toEqual(
      ['created_at', 'html', 'id', 'link', 'subject', 'text', 'to'].sort(),
    )
    expect(mails[0]!.id).toBeGreaterThan(mails[1]!.id)
    expect(mails[0]!.html).toContain(`href="${mails[0]!.link.replaceAll('&', '&#38;')}"`)
  })

  it('serves a readable HTML page, newest first, with clickable links', async () => {
    const older = await confirmedUser()
    const newer = await confirmedUser()
    await stack.client().auth.signInWithOtp({ email: older })
    await stack.client().auth.signInWithOtp({ email: newer })
    const [mail] = await mailsFor(newer)
    const res = await fetch(`${stack.url}/auth/v1/mailbox`)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toContain('text/html')
    const html = await res.text()
    expect(html).toContain('<h1>Mailbox</h1>')
    expect(html).toContain(`<a href="${mail!.link.replaceAll('&', '&#38;')}">`)
    expect(html.indexOf(newer)).toBeGreaterThan(-1)
    expect(html.indexOf(newer)).toBeLessThan(html.indexOf(older))
  })
})

describe('mailbox persistence', () => {
  it('keeps messages across a restart', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'localbase-auth-mail-'))
    const email = newEmail()
    const first = await startTestStack('auth', { dataDir })
    try {
      await first.client().auth.signInWithOtp({ email })
    } finally {
      await first.stop()
    }
    const second = await startTestStack('auth', { dataDir })
    try {
      const res = await fetch(`${second.url}/auth/v1/mailbox/messages?email=${email}`)
      expect((await res.json()).map((m: Mail) => m.subject)).toEqual(['Confirm Your Signup'])
    } finally {
      await second.stop()
      rmSync(dataDir, { recursive: true, force: true })
    }
  }, 120_000)
})
