import { SignJWT } from 'jose'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DEFAULT_ANON_KEY, DEFAULT_JWT_SECRET } from '../src/config/keys.ts'
import { startTestStack, type TestStack } from './helpers.ts'

// Refresh rotation and reuse (trap 15), sign-out scopes and session invalidation
// (trap 14), GET/PUT /user. The fixture sets refresh_token_reuse_interval = 1.

let stack: TestStack
beforeAll(async () => {
  stack = await startTestStack('auth')
})
afterAll(() => stack?.stop())

let counter = 0
const newEmail = () => `tok${++counter}-${Date.now()}@example.com`
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

async function newUser(password = 'correct-horse') {
  const email = newEmail()
  const { error } = await stack.admin().auth.admin.createUser({
    email,
    password,
    email_confirm: true,
  })
  expect(error).toBeNull()
  return { email, password }
}

async function signIn(email: string, password = 'correct-horse') {
  const client = stack.client()
  const { data, error } = await client.auth.signInWithPassword({ email, password })
  expect(error).toBeNull()
  return { client, session: data.session! }
}

const getUser = (token: string) =>
  fetch(`${stack.url}/auth/v1/user`, {
    headers: {
      apikey: DEFAULT_ANON_KEY,
      authorization: `Bearer ${token}`,
      'x-supabase-api-version': '2024-01-01',
    },
  })

const refresh = (token: string) => stack.client().auth.refreshSession({ refresh_token: token })

describe('refresh tokens', () => {
  it('rotates: each refresh revokes the old token and issues a child in the same session', async () => {
    const { email } = await newUser()
    const { session } = await signIn(email)
    const { data, error } = await refresh(session.refresh_token)
    expect(error).toBeNull()
    const next = data.session!
    expect(next.refresh_token).not.toBe(session.refresh_token)
    expect(next.user.id).toBe(session.user.id)
    const { rows } = await stack.db.pg.query<{ token: string; revoked: boolean; parent: string }>(
      `select token, revoked, parent from auth.refresh_tokens where token = any($1) order by id`,
      [[session.refresh_token, next.refresh_token]],
    )
    expect(rows).toEqual([
      { token: session.refresh_token, revoked: true, parent: null },
      { token: next.refresh_token, revoked: false, parent: session.refresh_token },
    ])
    const claims = JSON.parse(atob(next.access_token.split('.')[1]!))
    const original = JSON.parse(atob(session.access_token.split('.')[1]!))
    expect(claims.session_id).toBe(original.session_id)
    expect(claims.amr).toEqual(original.amr)
  })

  it('gives the active token back for a revoked one reused within the interval', async () => {
    const { email } = await newUser()
    const { session } = await signIn(email)
    const b = (await refresh(session.refresh_token)).data.session!
    const c = (await refresh(b.refresh_token)).data.session!
    const again = await refresh(session.refresh_token)
    expect(again.error).toBeNull()
    expect(again.data.session!.refresh_token).toBe(c.refresh_token)
  })

  it('lets several tabs refresh the same token at once; all get the same child', async () => {
    const { email } = await newUser()
    const { session } = await signIn(email)
    const results = await Promise.all([1, 2, 3].map(() => refresh(session.refresh_token)))
    for (const { error } of results) expect(error).toBeNull()
    const tokens = new Set(results.map((r) => r.data.session!.refresh_token))
    expect(tokens.size).toBe(1)
    expect(tokens.has(session.refresh_token)).toBe(false)
  })

  it('revokes the whole session when a token is reused after the interval', async () => {
    const { email } = await newUser()
    const { session } = await signIn(email)
    const b = (await refresh(session.refresh_token)).data.session!
    const c = (await refresh(b.refresh_token)).data.session!
    await sleep(1300)
    const reused = await refresh(session.refresh_token)
    expect(reused.data.session).toBeNull()
    expect(reused.error).toMatchObject({ status: 400, code: 'refresh_token_already_used' })
    expect(reused.error!.message).toBe('Invalid Refresh Token: Already Used')

    const current = await refresh(c.refresh_token)
    expect(current.error).toMatchObject({ status: 400, code: 'refresh_token_not_found' })
    const res = await getUser(c.access_token)
    expect(res.status).toBe(403)
    expect((await res.json()).code).toBe('session_not_found')
  })

  it('answers an unknown token with refresh_token_not_found', async () => {
    const { error } = await refresh('no-such-token')
    expect(error).toMatchObject({ status: 400, code: 'refresh_token_not_found' })
    expect(error!.message).toBe('Invalid Refresh Token: Refresh Token Not Found')
  })
})

describe('sign-out', () => {
  async function threeSessions() {
    const { email } = await newUser()
    return Promise.all([signIn(email), signIn(email), signIn(email)])
  }

  it('scope local ends only this session', async () => {
    const [a, b] = await threeSessions()
    expect((await a.client.auth.signOut({ scope: 'local' })).error).toBeNull()
    expect((await getUser(a.session.access_token)).status).toBe(403)
    expect((await refresh(a.session.refresh_token)).error?.code).toBe('refresh_token_not_found')
    expect((await getUser(b.session.access_token)).status).toBe(200)
  })

  it('scope others ends every other session and keeps this one', async () => {
    const [a, b, c] = await threeSessions()
    expect((await a.client.auth.signOut({ scope: 'others' })).error).toBeNull()
    expect((await getUser(a.session.access_token)).status).toBe(200)
    for (const other of [b, c]) {
      const res = await getUser(other.session.access_token)
      expect(res.status).toBe(403)
      expect(await res.json()).toEqual({
        code: 'session_not_found',
        message: 'Session from session_id claim in JWT does not exist',
      })
    }
    expect((await refresh(a.session.refresh_token)).error).toBeNull()
  })

  it('scope global (the default) ends all sessions; getUser then reports a missing session', async () => {
    const [a, b] = await threeSessions()
    expect((await a.client.auth.signOut()).error).toBeNull()
    for (const s of [a, b]) {
      const { data, error } = await stack.client().auth.getUser(s.session.access_token)
      expect(data.user).toBeNull()
      expect(error).toMatchObject({ name: 'AuthSessionMissingError' })
      expect((await refresh(s.session.refresh_token)).error?.code).toBe('refresh_token_not_found')
    }
  })

  it('rejects an unknown scope', async () => {
    const { email } = await newUser()
    const { session } = await signIn(email)
    const res = await fetch(`${stack.url}/auth/v1/logout?scope=everywhere`, {
      method: 'POST',
      headers: { authorization: `Bearer ${session.access_token}` },
    })
    expect(res.status).toBe(400)
    expect((await res.json()).error_code).toBe('validation_failed')
  })
})

describe('GET /user', () => {
  it('returns the user for a valid token', async () => {
    const { email } = await newUser()
    const { client, session } = await signIn(email)
    const { data, error } = await client.auth.getUser()
    expect(error).toBeNull()
    expect(data.user).toMatchObject({ id: session.user.id, email })
  })

  it('refuses an expired token with 403 bad_jwt', async () => {
    const { email } = await newUser()
    const { session } = await signIn(email)
    const now = Math.floor(Date.now() / 1000)
    const expired = await new SignJWT({
      sub: session.user.id,
      role: 'authenticated',
      aud: 'authenticated',
      session_id: JSON.parse(atob(session.access_token.split('.')[1]!)).session_id,
    })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setIssuedAt(now - 7200)
      .setExpirationTime(now - 3600)
      .sign(new TextEncoder().encode(DEFAULT_JWT_SECRET))
    const res = await getUser(expired)
    expect(res.status).toBe(403)
    expect(await res.json()).toEqual({
      code: 'bad_jwt',
      message:
        'invalid JWT: unable to parse or verify signature, token has invalid claims: token is expired',
    })
    const { error } = await stack.client().auth.getUser(expired)
    expect(error).toMatchObject({ status: 403, code: 'bad_jwt' })
  })

  it('refuses a forged signature, the anon key, and no token', async () => {
    const { email } = await newUser()
    const { session } = await signIn(email)
    const forged = session.access_token.slice(0, -4) + 'AAAA'
    expect((await getUser(forged)).status).toBe(403)
    const anon = await getUser(DEFAULT_ANON_KEY)
    expect(anon.status).toBe(403)
    expect((await anon.json()).code).toBe('bad_jwt')
    const none = await fetch(`${stack.url}/auth/v1/user`)
    expect(none.status).toBe(401)
    expect((await none.json()).error_code).toBe('no_authorization')
  })
})

describe('PUT /user', () => {
  it('changes the password; the old one stops working', async () => {
    const { email } = await newUser()
    const { client } = await signIn(email)
    const { error } = await client.auth.updateUser({ password: 'brand-new-pass' })
    expect(error).toBeNull()
    const old = await stack.client().auth.signInWithPassword({ email, password: 'correct-horse' })
    expect(old.error?.code).toBe('invalid_credentials')
    await signIn(email, 'brand-new-pass')
  })

  it('refuses the same password and a weak one', async () => {
    const { email } = await newUser()
    const { client } = await signIn(email)
    const same = await client.auth.updateUser({ password: 'correct-horse' })
    expect(same.error).toMatchObject({ status: 422, code: 'same_password' })
    const weak = await client.auth.updateUser({ password: 'abc' })
    expect(weak.error).toMatchObject({ status: 422, code: 'weak_password', reasons: ['length'] })
  })

  it('merges user metadata, dropping keys set to null', async () => {
    const { email } = await newUser()
    const { client } = await signIn(email)
    await client.auth.updateUser({ data: { theme: 'dark', lang: 'en' } })
    const { data, error } = await client.auth.updateUser({ data: { lang: null, tz: 'UTC' } })
    expect(error).toBeNull()
    expect(data.user!.user_metadata).toEqual({ theme: 'dark', tz: 'UTC' })
  })
})

describe('anonymous users', () => {
  it('become permanent by adding an email and password', async () => {
    const client = stack.client()
    const anon = await client.auth.signInAnonymously()
    expect(anon.error).toBeNull()
    const bare = await client.auth.updateUser({ password: 'correct-horse' })
    expect(bare.error).toMatchObject({ status: 422, code: 'validation_failed' })
    const email = newEmail()
    const { data, error } = await client.auth.updateUser({ email, password: 'correct-horse' })
    expect(error).toBeNull()
    expect(data.user).toMatchObject({
      id: anon.data.user!.id,
      email,
      is_anonymous: false,
      app_metadata: { provider: 'email', providers: ['email'] },
    })
    expect(data.user!.identities).toHaveLength(1)
    const { session } = await signIn(email)
    expect(session.user.id).toBe(anon.data.user!.id)
  })
})

describe('service endpoints', () => {
  it('serves /settings in GoTrue shape', async () => {
    const res = await fetch(`${stack.url}/auth/v1/settings`)
    const settings = await res.json()
    expect(Object.keys(settings).sort()).toEqual(
      [
        'disable_signup',
        'external',
        'mailer_autoconfirm',
        'passkeys_enabled',
        'phone_autoconfirm',
        'saml_enabled',
        'saml_private_key_next_configured',
        'sms_provider',
      ].sort(),
    )
    expect(settings).toMatchObject({
      disable_signup: false,
      mailer_autoconfirm: true,
      phone_autoconfirm: false,
      external: { email: true, phone: false, anonymous_users: true, github: false },
    })
  })

  it('serves an empty JWKS for HS256 and a health check', async () => {
    expect(await (await fetch(`${stack.url}/auth/v1/.well-known/jwks.json`)).json()).toEqual({
      keys: [],
    })
    expect((await (await fetch(`${stack.url}/auth/v1/health`)).json()).name).toBe('GoTrue')
  })
})
