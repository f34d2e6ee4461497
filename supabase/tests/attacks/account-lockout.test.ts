import { createClient, type SupabaseClient } from '@supabase/supabase-js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DEFAULT_PUBLISHABLE_KEY } from '../../../packages/localbase/src/index.ts'
import { adminClient, type Stack, startStack } from '../stack.ts'
import { behindProxy, PROXY_ADDRESS } from './proxy.ts'

// Issue #14, finding 4b: sign-in attempts were limited per email, so anyone could lock a
// person out: after 30 wrong passwords the right one got 429 too. Now wrong passwords for one
// account make further attempts on it wait their turn (a growing, capped delay) instead, and
// an address the owner has signed in from is not kept waiting. The attackers here sit behind
// a trusted proxy, so each guess really comes from another address.

const noSession = { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false }
const password = 'the owner knows this one'
let serial = 0

function from(stack: Stack, address: string, signal?: AbortSignal): SupabaseClient {
  return createClient(stack.url, DEFAULT_PUBLISHABLE_KEY, {
    auth: noSession,
    global: { fetch: behindProxy(address, signal) },
  })
}

async function owner(stack: Stack): Promise<string> {
  const email = `owner.${++serial}.${Date.now()}@example.test`
  const { error } = await adminClient(stack).auth.admin.createUser({
    email,
    password,
    email_confirm: true,
  })
  expect(error).toBeNull()
  return email
}

describe('with short delays', () => {
  let stack: Stack
  beforeAll(async () => {
    stack = await startStack({
      TRUSTED_PROXIES: PROXY_ADDRESS,
      SIGN_IN_FREE_FAILURES: '3',
      SIGN_IN_DELAY_MS: '5',
      SIGN_IN_MAX_DELAY_MS: '40',
    })
  })
  afterAll(() => stack?.stop())

  // Each guess checks a bcrypt hash: 51 of them take a while on a busy machine.
  it(
    'lets the owner in from a fresh address after 50 guesses from 50 addresses',
    { timeout: 120_000 },
    async () => {
      const email = await owner(stack)
      for (let i = 1; i <= 50; i++) {
        const { error } = await from(stack, `198.51.100.${i}`).auth.signInWithPassword({
          email,
          password: `guess number ${i}`,
        })
        // Slowed, never refused: a refusal here is what would lock the owner out.
        expect(error).toMatchObject({ status: 400, code: 'invalid_credentials' })
      }
      const { data, error } = await from(stack, '203.0.113.10').auth.signInWithPassword({
        email,
        password,
      })
      expect(error).toBeNull()
      expect(data.session?.user.email).toBe(email)
    },
  )
})

describe('with a long delay', () => {
  let stack: Stack
  const hangUp = new AbortController()
  beforeAll(async () => {
    stack = await startStack({
      TRUSTED_PROXIES: PROXY_ADDRESS,
      SIGN_IN_FREE_FAILURES: '2',
      SIGN_IN_DELAY_MS: '60000',
      SIGN_IN_MAX_DELAY_MS: '60000',
    })
  })
  afterAll(async () => {
    hangUp.abort()
    await stack?.stop()
  })

  it('holds guesses past the free ones, one per address, while the owner walks in', async () => {
    const email = await owner(stack)
    const home = from(stack, '203.0.113.20')
    expect((await home.auth.signInWithPassword({ email, password })).error).toBeNull()

    for (const address of ['198.51.100.1', '198.51.100.2']) {
      const { error } = await from(stack, address).auth.signInWithPassword({
        email,
        password: 'a free guess',
      })
      expect(error).toMatchObject({ status: 400, code: 'invalid_credentials' })
    }
    // Not awaited: it waits a minute in the account's lane.
    void from(stack, '198.51.100.3', hangUp.signal).auth.signInWithPassword({
      email,
      password: 'a held guess',
    })
    // A sign-in elsewhere takes a whole round trip with its own bcrypt: by then the held
    // guess has long reached its place in the lane.
    const elsewhere = await from(stack, '198.51.100.4').auth.signInWithPassword({
      email: await owner(stack),
      password: 'a guess at someone else',
    })
    expect(elsewhere.error).toMatchObject({ status: 400, code: 'invalid_credentials' })

    // Another guess from the address already waiting is refused outright: the first is held.
    const impatient = () =>
      from(stack, '198.51.100.3').auth.signInWithPassword({ email, password: 'impatient' })
    expect((await impatient()).error).toMatchObject({
      status: 429,
      code: 'over_request_rate_limit',
    })

    // The owner, from where they signed in before, is not kept waiting behind it, and gets
    // in while the held guess still waits.
    const { data, error } = await home.auth.signInWithPassword({ email, password })
    expect(error).toBeNull()
    expect(data.session?.user.email).toBe(email)
    expect((await impatient()).error).toMatchObject({
      status: 429,
      code: 'over_request_rate_limit',
    })
  })
})
