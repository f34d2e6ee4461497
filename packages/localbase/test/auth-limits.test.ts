import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DEFAULT_ANON_KEY } from '../src/config/keys.ts'
import { startTestStack, type TestStack } from './helpers.ts'

// enable_signup = false and [auth.rate_limit] sign_in_sign_ups = 3 (per email and per
// client address, five minutes).

let stack: TestStack
beforeAll(async () => {
  stack = await startTestStack('auth-limits')
})
afterAll(() => stack?.stop())

const signIn = (email: string, password: string, address: string) =>
  fetch(`${stack.url}/auth/v1/token?grant_type=password`, {
    method: 'POST',
    headers: {
      apikey: DEFAULT_ANON_KEY,
      'content-type': 'application/json',
      'x-supabase-api-version': '2024-01-01',
      'x-forwarded-for': address,
    },
    body: JSON.stringify({ email, password }),
  })

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

describe('sign-in rate limit', () => {
  it('limits attempts per email and per address with 429 over_request_rate_limit', async () => {
    const admin = stack.admin().auth.admin
    for (const email of ['limited@example.com', 'other@example.com']) {
      await admin.createUser({ email, password: 'correct-horse', email_confirm: true })
    }
    for (let i = 0; i < 3; i++) {
      expect((await signIn('limited@example.com', 'wrong-password', '10.0.0.1')).status).toBe(400)
    }
    const blocked = await signIn('limited@example.com', 'correct-horse', '10.0.0.1')
    expect(blocked.status).toBe(429)
    expect(blocked.headers.get('x-sb-error-code')).toBe('over_request_rate_limit')
    expect(await blocked.json()).toEqual({
      code: 'over_request_rate_limit',
      message: 'Request rate limit reached',
    })
    // The same email from elsewhere, and another email from the same address.
    expect((await signIn('limited@example.com', 'correct-horse', '10.0.0.2')).status).toBe(429)
    expect((await signIn('other@example.com', 'correct-horse', '10.0.0.1')).status).toBe(429)
    // Another email from another address is unaffected; the address need not be an IP.
    expect((await signIn('other@example.com', 'correct-horse', 'cafe')).status).toBe(200)
  })
})
