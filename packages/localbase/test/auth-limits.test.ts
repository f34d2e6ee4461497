import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DEFAULT_ANON_KEY } from '../src/config/keys.ts'
import { startTestStack, type TestStack } from './helpers.ts'

// GoTrue's [auth.rate_limit] (internal/api/apilimiter): per client address, 30 requests at
// once per route, refilled at the configured rate per five minutes; mails per hour for the
// whole project. The fixture refills one request per five minutes, so each burst is exact,
// and allows no mail at all. The test plays a trusted proxy to speak for many clients.

let stack: TestStack
beforeAll(async () => {
  stack = await startTestStack('auth-limits', { env: { TRUSTED_PROXIES: '127.0.0.1' } })
})
afterAll(() => stack?.stop())

let serial = 0
const nobody = () => `nobody-${++serial}@example.com`

const post = (path: string, body: unknown, client: string) =>
  fetch(`${stack.url}/auth/v1${path}`, {
    method: 'POST',
    headers: {
      apikey: DEFAULT_ANON_KEY,
      'content-type': 'application/json',
      'x-supabase-api-version': '2024-01-01',
      'x-forwarded-for': client,
    },
    body: JSON.stringify(body),
  })

const signIn = (client: string) =>
  post('/token?grant_type=password', { email: nobody(), password: 'wrong-password' }, client)

/** Sends `count` requests one after another and answers their statuses. */
async function statuses(count: number, send: (i: number) => Promise<Response>) {
  const seen: number[] = []
  for (let i = 0; i < count; i++) {
    const res = await send(i)
    await res.body?.cancel()
    seen.push(res.status)
  }
  return seen
}

async function expectRateLimited(res: Response) {
  expect(res.status).toBe(429)
  expect(res.headers.get('x-sb-error-code')).toBe('over_request_rate_limit')
  expect(await res.json()).toEqual({
    code: 'over_request_rate_limit',
    message: 'Request rate limit reached',
  })
}

describe('signups disabled', () => {
  it('refuses signUp with 422 signup_disabled, while admins can still create users', async () => {
    const { error } = await stack
      .client()
      .auth.signUp({ email: 'nope@example.com', password: 'correct-horse' })
    expect(error).toMatchObject({ status: 422, code: 'signup_disabled' })
    expect(error!.message).toBe('Signups not allowed for this instance')
    const created = await stack.admin().auth.admin.createUser({
      email: 'made-by-admin@example.com',
      password: 'correct-horse',
      email_confirm: true,
    })
    expect(created.error).toBeNull()
  })
})

describe('token requests (token_refresh)', () => {
  it('lets one address make 30 at once, every grant counted, then answers 429', async () => {
    expect(new Set(await statuses(30, () => signIn('10.0.0.1')))).toEqual(new Set([400]))
    // A refresh is counted in the same bucket; an unsupported grant is refused before it.
    const unsupported = await post('/token?grant_type=magic', {}, '10.0.0.1')
    expect(unsupported.status).toBe(400)
    await expectRateLimited(
      await post('/token?grant_type=refresh_token', { refresh_token: 'nope' }, '10.0.0.1'),
    )
    await expectRateLimited(await signIn('10.0.0.1'))
    expect((await signIn('10.0.0.2')).status).toBe(400)
  })

  it('counts an IPv6 client by its /64', async () => {
    const inOneNetwork = await statuses(30, (i) => signIn(`2001:db8::${(i + 1).toString(16)}`))
    expect(new Set(inOneNetwork)).toEqual(new Set([400]))
    await expectRateLimited(await signIn('2001:db8:0:0:ffff:ffff:ffff:ffff'))
    expect((await signIn('2001:db8:0:1::1')).status).toBe(400)
  })
})

describe('mail-sending routes (sign_in_sign_ups)', () => {
  it('gives each route its own 30 per address', async () => {
    const recover = () => post('/recover', { email: nobody() }, '10.0.1.1')
    expect(new Set(await statuses(30, recover))).toEqual(new Set([200]))
    await expectRateLimited(await recover())
    const resend = await post('/resend', { type: 'signup', email: nobody() }, '10.0.1.1')
    expect(resend.status).toBe(200)
    expect((await post('/recover', { email: nobody() }, '10.0.1.2')).status).toBe(200)
  })
})

describe('verifications (token_verifications)', () => {
  it('counts GET and POST /verify together, and answers the 429 as JSON', async () => {
    const verify = () =>
      post('/verify', { type: 'recovery', token_hash: 'not-a-token' }, '10.0.2.1')
    expect(new Set(await statuses(30, verify))).toEqual(new Set([403]))
    const link = await fetch(`${stack.url}/auth/v1/verify?token=nope&type=signup`, {
      headers: { 'x-forwarded-for': '10.0.2.1', 'x-supabase-api-version': '2024-01-01' },
      redirect: 'manual',
    })
    await expectRateLimited(link)
    expect((await verify()).status).toBe(429)
  })
})

describe('mails (email_sent, with SMTP on)', () => {
  it('refuses a mail with 429 over_email_send_rate_limit and keeps no token for it', async () => {
    const email = 'forgetful@example.com'
    const { data } = await stack.admin().auth.admin.createUser({
      email,
      password: 'correct-horse',
      email_confirm: true,
    })
    const res = await post('/recover', { email }, '10.0.3.1')
    expect(res.status).toBe(429)
    expect(res.headers.get('x-sb-error-code')).toBe('over_email_send_rate_limit')
    expect(await res.json()).toEqual({
      code: 'over_email_send_rate_limit',
      message: 'email rate limit exceeded',
    })
    const { rows } = await stack.db.pg.query<{ tokens: number; sent: string | null }>(
      `select (select count(*)::int from auth.one_time_tokens where user_id = u.id) as tokens,
         recovery_sent_at as sent
       from auth.users u where id = $1`,
      [data.user!.id],
    )
    expect(rows[0]).toEqual({ tokens: 0, sent: null })
  })
})
