import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DEFAULT_ANON_KEY, DEFAULT_PUBLISHABLE_KEY } from '../src/config/keys.ts'
import { startTestStack, type TestStack } from './helpers.ts'

// The gateway's API key check (gateway/api-key.ts) where the attack test does not reach:
// every way a key can be presented, the routes the hosted gateway leaves open, and requests
// with no key at all, which stay each service's business.

let stack: TestStack
beforeAll(async () => {
  stack = await startTestStack()
})
afterAll(() => stack?.stop())

const invalid = {
  message: 'Invalid API key',
  hint: 'Double check your Supabase `anon` or `service_role` API key.',
}
const unregistered = {
  message: 'Unregistered API key',
  hint: 'Double check the provided API key as it is not registered for this project.',
}

async function answer(path: string, headers: Record<string, string> = {}) {
  const res = await fetch(`${stack.url}${path}`, { headers, redirect: 'manual' })
  const text = await res.text()
  return { status: res.status, body: text.startsWith('{') ? JSON.parse(text) : text }
}

describe('an unknown key', () => {
  it('is refused in the apikey header, at the prefix itself too', async () => {
    expect(await answer('/rest/v1/', { apikey: 'nope' })).toEqual({ status: 401, body: invalid })
    expect(await answer('/rest/v1', { apikey: 'nope' })).toEqual({ status: 401, body: invalid })
  })

  it('is refused in the apikey query parameter', async () => {
    expect(await answer('/rest/v1/notes?apikey=nope')).toEqual({ status: 401, body: invalid })
    const withGoodHeader = await answer('/storage/v1/bucket?apikey=sb_secret_nope', {
      apikey: DEFAULT_ANON_KEY,
    })
    expect(withGoodHeader).toEqual({ status: 401, body: unregistered })
  })

  it('is refused as the bearer when it is an sb_ key, whatever the apikey', async () => {
    const res = await answer('/rest/v1/notes', {
      apikey: DEFAULT_PUBLISHABLE_KEY,
      authorization: 'Bearer sb_secret_nope',
    })
    expect(res).toEqual({ status: 401, body: unregistered })
  })

  it('does not stop the routes the hosted gateway leaves open, nor preflights', async () => {
    const verify = await answer('/auth/v1/verify?token=x&type=signup', { apikey: 'nope' })
    expect(verify.status).toBe(303)
    const jwks = await answer('/auth/v1/.well-known/jwks.json', { apikey: 'nope' })
    expect(jwks).toEqual({ status: 200, body: { keys: [] } })
    const preflight = await fetch(`${stack.url}/rest/v1/notes?apikey=nope`, {
      method: 'OPTIONS',
      headers: { origin: 'http://app.test', 'access-control-request-method': 'GET' },
    })
    expect(preflight.status).toBe(204)
  })

  it('does not reach outside the services', async () => {
    expect((await answer('/health', { apikey: 'nope' })).status).toBe(200)
  })
})

describe('no key at all', () => {
  it('is left to each service, as under the Supabase CLI', async () => {
    expect((await answer('/rest/v1/notes?select=id')).status).toBe(200)
    expect((await answer('/auth/v1/settings')).status).toBe(200)
    expect(await answer('/storage/v1/bucket')).toMatchObject({
      status: 400,
      body: { message: 'Invalid Compact JWS' },
    })
  })
})
