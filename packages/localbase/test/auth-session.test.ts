import { decodeJwt, decodeProtectedHeader } from 'jose'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestStack, type TestStack } from './helpers.ts'

// Sign-up, sign-in, session JSON and claims, refresh rotation and sign-out, through the
// real supabase-js client (docs §3.3-3.5, traps 13-16).

let stack: TestStack
beforeAll(async () => {
  stack = await startTestStack('auth')
})
afterAll(() => stack?.stop())

let counter = 0
const newEmail = () => `user${++counter}-${Date.now()}@example.com`

async function signedIn(email = newEmail(), password = 'correct-horse') {
  const client = stack.client()
  const { data, error } = await client.auth.signUp({ email, password })
  expect(error).toBeNull()
  return { client, email, password, session: data.session! }
}

describe('signup', () => {
  it('returns a complete session and user JSON, and runs the app trigger on auth.users', async () => {
    const client = stack.client()
    const email = newEmail()
    const { data, error } = await client.auth.signUp({
      email,
      password: 'correct-horse',
      options: { data: { display_name: 'Ada' } },
    })
    expect(error).toBeNull()
    const session = data.session!
    expect(Object.keys(session).sort()).toEqual(
      ['access_token', 'expires_at', 'expires_in', 'refresh_token', 'token_type', 'user'].sort(),
    )
    expect(session.token_type).toBe('bearer')
    expect(session.expires_in).toBe(3600)
    expect(session.expires_at).toBe(decodeJwt(session.access_token).exp)
    const user = session.user
    expect(user).toMatchObject({
      aud: 'authenticated',
      role: 'authenticated',
      email,
      phone: '',
      app_metadata: { provider: 'email', providers: ['email'] },
      user_metadata: { display_name: 'Ada' },
      is_anonymous: false,
    })
    expect(user.email_confirmed_at).toBeTruthy()
    expect(user.last_sign_in_at).toBeTruthy()
    expect(user.identities).toHaveLength(1)
    expect(user.identities![0]).toMatchObject({
      id: user.id,
      user_id: user.id,
      provider: 'email',
      identity_data: { sub: user.id, email, email_verified: true, phone_verified: false },
    })
    expect(user).not.toHaveProperty('new_email')

    const profile = await client.from('profiles').select('id, display_name').single()
    expect(profile.data).toEqual({ id: user.id, display_name: 'Ada' })
  })

  it('puts exactly the GoTrue claims in the access token', async () => {
    const { session } = await signedIn()
    expect(decodeProtectedHeader(session.access_token)).toEqual({ alg: 'HS256', typ: 'JWT' })
    const claims = decodeJwt(session.access_token)
    expect(Object.keys(claims)).toEqual([
      'iss',
      'sub',
      'aud',
      'exp',
      'iat',
      'email',
      'phone',
      'app_metadata',
      'user_metadata',
      'role',
      'aal',
      'amr',
      'session_id',
      'is_anonymous',
    ])
    expect(claims).toMatchObject({
      iss: `${stack.url}/auth/v1`,
      sub: session.user.id,
      aud: 'authenticated',
      email: session.user.email,
      phone: '',
      app_metadata: { provider: 'email', providers: ['email'] },
      user_metadata: {},
      role: 'authenticated',
      aal: 'aal1',
      is_anonymous: false,
    })
    expect(claims.exp! - claims.iat!).toBe(3600)
    expect(claims.amr).toEqual([{ method: 'password', timestamp: expect.any(Number) }])
    const { rows } = await stack.db.pg.query('select user_id from auth.sessions where id = $1', [
      claims.session_id,
    ])
    expect(rows).toEqual([{ user_id: session.user.id }])
  })

  it('rejects a duplicate with 422 user_already_exists when autoconfirming', async () => {
    const { email } = await signedIn()
    const { data, error } = await stack.client().auth.signUp({ email, password: 'another-pass' })
    expect(data.user).toBeNull()
    expect(error).toMatchObject({ status: 422, code: 'user_already_exists' })
    expect(error!.message).toBe('User already registered')
  })

  it('rejects a short password with weak_password and its reasons', async () => {
    const { error } = await stack.client().auth.signUp({ email: newEmail(), password: 'short' })
    expect(error).toMatchObject({ status: 422, code: 'weak_password', reasons: ['length'] })
    expect(error!.message).toBe('Password should be at least 8 characters.')
  })

  it('rejects an invalid address and a missing password as validation_failed', async () => {
    const bad = await stack.client().auth.signUp({ email: 'not-an-email', password: 'long-enough' })
    expect(bad.error).toMatchObject({ status: 400, code: 'validation_failed' })
    const res = await fetch(`${stack.url}/auth/v1/signup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-supabase-api-version': '2024-01-01' },
      body: JSON.stringify({ email: newEmail() }),
    })
    expect(res.status).toBe(400)
    expect(await res.json()).toEqual({
      code: 'validation_failed',
      message: 'Signup requires a valid password',
    })
  })

  it('signs in anonymously when enabled', async () => {
    const { data, error } = await stack.client().auth.signInAnonymously()
    expect(error).toBeNull()
    expect(data.user).toMatchObject({ is_anonymous: true, email: '', app_metadata: {} })
    const claims = decodeJwt(data.session!.access_token)
    expect(claims).toMatchObject({ is_anonymous: true, role: 'authenticated' })
    expect(claims.amr).toEqual([{ method: 'anonymous', timestamp: expect.any(Number) }])
  })
})

describe('password sign-in', () => {
  it('signs in a seed.sql user whose hash came from pgcrypto crypt()', async () => {
    const { data, error } = await stack.client().auth.signInWithPassword({
      email: 'seeded@example.com',
      password: 'seeded-password',
    })
    expect(error).toBeNull()
    expect(data.user!.id).toBe('11111111-1111-4111-8111-111111111111')
    expect(data.user!.user_metadata).toEqual({ display_name: 'Seeded' })
  })

  it('answers a wrong password or unknown user with 400 invalid_credentials', async () => {
    const { email } = await signedIn()
    for (const attempt of [
      { email, password: 'wrong-password' },
      { email: newEmail(), password: 'whatever-pass' },
    ]) {
      const { data, error } = await stack.client().auth.signInWithPassword(attempt)
      expect(data.session).toBeNull()
      expect(error).toMatchObject({ status: 400, code: 'invalid_credentials' })
      expect(error!.message).toBe('Invalid login credentials')
    }
  })

  it('matches the email case-insensitively', async () => {
    const { email, password } = await signedIn()
    const { error } = await stack
      .client()
      .auth.signInWithPassword({ email: email.toUpperCase(), password })
    expect(error).toBeNull()
  })
})

describe('errors on the wire', () => {
  const post = (path: string, body: string, headers: Record<string, string> = {}) =>
    fetch(`${stack.url}/auth/v1${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body,
    })

  it('uses {code,message} with the API version header, legacy {code,error_code,msg} without', async () => {
    const body = JSON.stringify({ email: 'nobody@example.com', password: 'nope-nope' })
    const modern = await post('/token?grant_type=password', body, {
      'x-supabase-api-version': '2024-01-01',
    })
    expect(modern.status).toBe(400)
    expect(modern.headers.get('x-supabase-api-version')).toBe('2024-01-01')
    expect(modern.headers.get('x-sb-error-code')).toBe('invalid_credentials')
    expect(await modern.json()).toEqual({
      code: 'invalid_credentials',
      message: 'Invalid login credentials',
    })
    const legacy = await post('/token?grant_type=password', body)
    expect(await legacy.json()).toEqual({
      code: 400,
      error_code: 'invalid_credentials',
      msg: 'Invalid login credentials',
    })
  })

  it('answers malformed JSON with 400 bad_json, not a 500', async () => {
    const res = await post('/signup', '{"email":', { 'x-supabase-api-version': '2024-01-01' })
    expect(res.status).toBe(400)
    expect((await res.json()).code).toBe('bad_json')
    const array = await post('/token?grant_type=password', '[]')
    expect(array.status).toBe(400)
    expect((await array.json()).error_code).toBe('bad_json')
  })

  it('answers wrong field types and over-long passwords with 400 validation_failed', async () => {
    const api = { 'x-supabase-api-version': '2024-01-01' }
    const typed = await post('/signup', JSON.stringify({ email: 5, password: 'long-enough' }), api)
    expect(typed.status).toBe(400)
    expect(await typed.json()).toEqual({
      code: 'validation_failed',
      message: 'email must be a string',
    })
    const long = await post(
      '/signup',
      JSON.stringify({ email: 'long@example.com', password: 'p'.repeat(73) }),
      api,
    )
    expect(long.status).toBe(400)
    expect((await long.json()).message).toBe('Password cannot be longer than 72 characters')
  })

  it('rejects an unknown grant type', async () => {
    const res = await post('/token?grant_type=magic', '{}', {
      'x-supabase-api-version': '2024-01-01',
    })
    expect(res.status).toBe(400)
    expect(await res.json()).toEqual({
      code: 'invalid_credentials',
      message: 'unsupported_grant_type',
    })
  })
})
