import { afterEach, describe, expect, it, vi } from 'vitest'
import { DEFAULT_JWT_SECRET, keysFromEnv } from '../src/config/keys.ts'
import { CallerResolver } from '../src/gateway/caller.ts'
import { mintToken } from './fixtures/rest/users.ts'

// The gateway keeps tokens it has verified (gateway/caller.ts): a token is served from there
// only while jose would still take it, and only for its exact text.

const resolver = () => new CallerResolver(keysFromEnv({}))
const alice = { sub: '00000000-0000-4000-8000-00000000000a', role: 'authenticated' }
const bob = { sub: '00000000-0000-4000-8000-00000000000b', role: 'service_role' }

afterEach(() => {
  vi.useRealTimers()
})

describe('verified tokens', () => {
  it('refuses a token once it has expired, though it was verified before', async () => {
    vi.useFakeTimers({ toFake: ['Date'] })
    vi.setSystemTime(new Date('2026-06-01T12:00:00Z'))
    const callers = resolver()
    const token = await mintToken(DEFAULT_JWT_SECRET, alice, '60s')
    expect(await callers.verify(token)).toMatchObject({ ok: true, claims: alice })
    vi.setSystemTime(new Date('2026-06-01T12:00:59.999Z'))
    expect(await callers.verify(token)).toMatchObject({ ok: true, claims: alice })
    vi.setSystemTime(new Date('2026-06-01T12:01:00Z'))
    expect(await callers.verify(token)).toEqual({
      ok: false,
      error: { kind: 'expired_jwt', message: 'JWT expired' },
    })
    // resolve() goes through the same check.
    expect(await callers.resolve(null, `Bearer ${token}`)).toMatchObject({
      ok: false,
      error: { kind: 'expired_jwt' },
    })
  })

  it("answers each token with its own claims, never another's", async () => {
    const callers = resolver()
    const tokens = [
      await mintToken(DEFAULT_JWT_SECRET, alice),
      await mintToken(DEFAULT_JWT_SECRET, bob),
    ]
    for (let round = 0; round < 3; round++) {
      const [a, b] = await Promise.all(tokens.map((t) => callers.resolve(null, `Bearer ${t}`)))
      expect(a).toMatchObject({ ok: true, caller: { role: 'authenticated', claims: alice } })
      expect(b).toMatchObject({ ok: true, caller: { role: 'service_role', claims: bob } })
    }
  })

  it('refuses a verified token whose signature was changed', async () => {
    const callers = resolver()
    const token = await mintToken(DEFAULT_JWT_SECRET, alice)
    expect((await callers.verify(token)).ok).toBe(true)
    const [head, body] = token.split('.')
    const forged = `${head}.${body}.${'A'.repeat(43)}`
    expect(await callers.verify(forged)).toMatchObject({
      ok: false,
      error: { kind: 'invalid_jwt' },
    })
  })

  it('shares claims that no request can change for the next', async () => {
    const callers = resolver()
    const claims = { ...alice, app_metadata: { roles: ['reader'] } }
    const token = await mintToken(DEFAULT_JWT_SECRET, claims)
    const first = await callers.verify(token)
    if (!first.ok) throw new Error('not verified')
    expect(() => {
      first.claims.role = 'service_role'
    }).toThrow(TypeError)
    expect(() => {
      ;(first.claims.app_metadata as { roles: string[] }).roles.push('admin')
    }).toThrow(TypeError)
    expect(await callers.verify(token)).toMatchObject({ ok: true, claims })
  })
})
