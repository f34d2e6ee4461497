import { createClient, type SupabaseClient } from '@supabase/supabase-js'
import { afterAll, describe, expect, it } from 'vitest'
import { DEFAULT_PUBLISHABLE_KEY } from '../../../packages/localbase/src/index.ts'
import { adminClient, startStack } from '../stack.ts'
import { behindProxy, PROXY_ADDRESS } from './proxy.ts'

// Issue #14, finding 4a: the sign-in limits keyed clients by the first X-Forwarded-For value,
// which anyone can write, so a new value per request gave unlimited password guesses. Now the
// address is the socket's unless the peer is a proxy the operator declared (TRUSTED_PROXIES),
// and then it is the right-most hop that proxy vouches for. /token allows 30 requests at once
// per address (GoTrue's token_refresh burst), refilled at 150 per five minutes.

// The project's own limits, not the relaxed ones other test stacks run with.
const stack = await startStack({
  TRUSTED_PROXIES: PROXY_ADDRESS,
  AUTH_RATE_LIMIT_TOKEN_REFRESH: '',
})
afterAll(() => stack.stop())

const noSession = { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false }
let serial = 0
const nobody = () => `nobody.${++serial}.${Date.now()}@example.test`

/** supabase-js whose every request claims to be forwarded for a new address. */
function forger(): SupabaseClient {
  const rotating: typeof fetch = (input, init) => {
    const headers = new Headers(init?.headers)
    headers.set('x-forwarded-for', `203.0.113.${++serial % 250}`)
    return fetch(input, { ...init, headers })
  }
  return createClient(stack.url, DEFAULT_PUBLISHABLE_KEY, {
    auth: noSession,
    global: { fetch: rotating },
  })
}

/** Wrong-password sign-ins on distinct accounts: how many were refused for the rate. */
async function refusedGuesses(client: SupabaseClient, count: number): Promise<number> {
  let refused = 0
  for (let i = 0; i < count; i++) {
    const { error } = await client.auth.signInWithPassword({
      email: nobody(),
      password: 'a guess',
    })
    if (error?.status === 429) {
      expect(error.code).toBe('over_request_rate_limit')
      refused++
    } else {
      expect(error).toMatchObject({ status: 400, code: 'invalid_credentials' })
    }
  }
  return refused
}

async function sessionAddresses(email: string): Promise<string[]> {
  const { rows } = await stack.db.pg.query<{ ip: string | null }>(
    `select host(s.ip) as ip from auth.sessions s join auth.users u on u.id = s.user_id
     where u.email = $1 order by s.created_at`,
    [email],
  )
  return rows.map((r) => r.ip ?? '')
}

async function account(): Promise<string> {
  const email = nobody()
  const { error } = await adminClient(stack).auth.admin.createUser({
    email,
    password: 'long enough password',
    email_confirm: true,
  })
  expect(error).toBeNull()
  return email
}

describe('a client that is not a trusted proxy', () => {
  it('is recorded at its socket address, whatever X-Forwarded-For it sends', async () => {
    const email = await account()
    const { error } = await forger().auth.signInWithPassword({
      email,
      password: 'long enough password',
    })
    expect(error).toBeNull()
    expect(await sessionAddresses(email)).toEqual(['127.0.0.1'])
  })

  it('cannot reset the limit by rotating X-Forwarded-For', async () => {
    // 60 guesses in a second or two: 30 at once plus a refill of one every two seconds.
    expect(await refusedGuesses(forger(), 60)).toBeGreaterThanOrEqual(15)
  })
})

describe('clients behind a declared trusted proxy', () => {
  const behind = (client: string) =>
    createClient(stack.url, DEFAULT_PUBLISHABLE_KEY, {
      auth: noSession,
      global: { fetch: behindProxy(client) },
    })

  it('are recorded at the address the proxy forwards', async () => {
    const email = await account()
    const { error } = await behind('198.51.100.77').auth.signInWithPassword({
      email,
      password: 'long enough password',
    })
    expect(error).toBeNull()
    expect(await sessionAddresses(email)).toEqual(['198.51.100.77'])
  })

  it('each get their own limit', async () => {
    for (let i = 1; i <= 40; i++) expect(await refusedGuesses(behind(`198.51.100.${i}`), 1)).toBe(0)
    expect(await refusedGuesses(behind('198.51.100.200'), 45)).toBeGreaterThanOrEqual(10)
    expect(await refusedGuesses(behind('198.51.100.201'), 1)).toBe(0)
  })

  it('cannot dodge the limit with addresses of their own in front of the proxy', async () => {
    const forging = createClient(stack.url, DEFAULT_PUBLISHABLE_KEY, {
      auth: noSession,
      global: {
        fetch: (input, init) => {
          const headers = new Headers(init?.headers)
          headers.set('x-forwarded-for', `203.0.113.${++serial % 250}`)
          return behindProxy('198.51.100.202')(input, { ...init, headers })
        },
      },
    })
    expect(await refusedGuesses(forging, 45)).toBeGreaterThanOrEqual(10)
  })
})
