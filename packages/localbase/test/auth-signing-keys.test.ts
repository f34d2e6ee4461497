import { createPrivateKey, generateKeyPairSync } from 'node:crypto'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { SupabaseClient } from '@supabase/supabase-js'
import { decodeProtectedHeader, SignJWT } from 'jose'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DEFAULT_ANON_KEY, DEFAULT_SERVICE_ROLE_KEY } from '../src/config/keys.ts'
import { loadSigningKeys } from '../src/config/signing-keys.ts'
import { copyFixture, startTestStack, type TestStack } from './helpers.ts'
import { realtimeClient, subscribed } from './realtime-helpers.ts'

// `[auth] signing_keys_path`: Auth signs with the first key and names it (kid), publishes the
// public halves as a JWKS, and REST, Storage, Realtime and Functions verify ES256 and RS256
// tokens as well as the legacy HS256 keys.

type Alg = 'ES256' | 'RS256'

function privateJwk(alg: Alg, kid: string): Record<string, unknown> {
  const { privateKey } =
    alg === 'ES256'
      ? generateKeyPairSync('ec', { namedCurve: 'P-256' })
      : generateKeyPairSync('rsa', { modulusLength: 2048 })
  return {
    ...privateKey.export({ format: 'jwk' }),
    kid,
    alg,
    use: 'sig',
    key_ops: ['sign', 'verify'],
    ext: true,
  }
}

describe('loading signing keys', () => {
  it('refuses what the CLI would not sign with, naming the key', () => {
    const dir = copyFixture('signing-keys')
    const path = join(dir, 'keys.json')
    const write = (value: unknown) => writeFileSync(path, JSON.stringify(value))
    write([{ ...privateJwk('ES256', 'a'), alg: 'HS256' }])
    expect(() => loadSigningKeys(path)).toThrow(/key 0: alg must be ES256 or RS256/)
    const { d: _d, ...publicOnly } = privateJwk('RS256', 'b')
    write([publicOnly])
    expect(() => loadSigningKeys(path)).toThrow(/key 0: a private key/)
    write([{ ...privateJwk('ES256', 'c'), kid: '' }])
    expect(() => loadSigningKeys(path)).toThrow(/kid is required/)
    write([])
    expect(() => loadSigningKeys(path)).toThrow(/holds no keys/)
    expect(() => loadSigningKeys(join(dir, 'missing.json'))).toThrow(/does not exist/)
    // One key, as `supabase gen signing-key` prints it, is a list of one.
    write(privateJwk('ES256', 'solo'))
    expect(loadSigningKeys(path).map((k) => k.kid)).toEqual(['solo'])
  })
})

describe.each<[Alg, Alg]>([
  ['ES256', 'RS256'],
  ['RS256', 'ES256'],
])('signing with %s (%s rotated out)', (current, previous) => {
  let stack: TestStack
  const keys = [privateJwk(current, `${current}-now`), privateJwk(previous, `${previous}-old`)]
  let client: SupabaseClient
  let userId: string
  let token: string

  beforeAll(async () => {
    const dir = copyFixture('signing-keys')
    writeFileSync(join(dir, 'supabase', 'signing_keys.json'), JSON.stringify(keys))
    stack = await startTestStack(dir)
    client = stack.client()
    const { data, error } = await client.auth.signUp({
      email: `keys-${current}-${Date.now()}@example.com`,
      password: 'correct-horse',
    })
    expect(error).toBeNull()
    userId = data.user!.id
    token = data.session!.access_token
  })
  afterAll(() => stack?.stop())

  /** A token as Auth would sign it, with `key`'s private half (or a stranger's). */
  async function signWith(jwk: Record<string, unknown>) {
    return new SignJWT({ role: 'authenticated', aal: 'aal1', session_id: userId })
      .setProtectedHeader({ alg: String(jwk.alg), kid: String(jwk.kid), typ: 'JWT' })
      .setSubject(userId)
      .setAudience('authenticated')
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(createPrivateKey({ key: jwk as never, format: 'jwk' }))
  }

  it('signs access tokens with the first key, naming it, and publishes both public keys', async () => {
    expect(decodeProtectedHeader(token)).toEqual({
      alg: current,
      kid: `${current}-now`,
      typ: 'JWT',
    })
    const res = await fetch(`${stack.url}/auth/v1/.well-known/jwks.json`)
    const { keys: published } = (await res.json()) as { keys: Record<string, unknown>[] }
    expect(published.map((k) => [k.kid, k.alg, k.use])).toEqual([
      [`${current}-now`, current, 'sig'],
      [`${previous}-old`, previous, 'sig'],
    ])
    for (const key of published) expect(key).not.toHaveProperty('d')
    // supabase-js verifies the claims locally against that JWKS.
    const { data, error } = await client.auth.getClaims()
    expect(error).toBeNull()
    expect(data!.claims.sub).toBe(userId)
    expect(data!.header).toMatchObject({ alg: current, kid: `${current}-now` })
  })

  it('opens REST and Storage to the token, and to one signed by the rotated-out key', async () => {
    for (const bearer of [token, await signWith(keys[1]!)]) {
      const headers = { apikey: DEFAULT_ANON_KEY, authorization: `Bearer ${bearer}` }
      const insert = await fetch(`${stack.url}/rest/v1/notes`, {
        method: 'POST',
        headers: {
          ...headers,
          'content-type': 'application/json',
          prefer: 'return=representation',
        },
        body: JSON.stringify({ title: 'signed' }),
      })
      expect(insert.status).toBe(201)
      const upload = await fetch(`${stack.url}/storage/v1/object/private/${userId}/note.txt`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'text/plain', 'x-upsert': 'true' },
        body: 'hello',
      })
      expect(upload.status).toBe(200)
    }
    const { data } = await client.from('notes').select('title')
    expect(data).toEqual([{ title: 'signed' }, { title: 'signed' }])
  })

  it('refuses a token signed by a key it does not hold, everywhere', async () => {
    const stranger = await signWith(privateJwk(current, `${current}-now`))
    const headers = { apikey: DEFAULT_ANON_KEY, authorization: `Bearer ${stranger}` }
    const rest = await fetch(`${stack.url}/rest/v1/notes`, { headers })
    expect(rest.status).toBe(401)
    const storage = await fetch(`${stack.url}/storage/v1/object/private/${userId}/note.txt`, {
      headers,
    })
    expect(storage.status).toBe(400)
    const fn = await fetch(`${stack.url}/functions/v1/whoami`, { headers })
    expect(fn.status).toBe(401)
    const user = await fetch(`${stack.url}/auth/v1/user`, { headers })
    expect(user.status).toBe(403)
    const rt = realtimeClient(stack)
    rt.realtime.setAuth(stranger)
    await expect(subscribed(rt.channel('room', { config: { private: false } }))).rejects.toThrow()
    await rt.removeAllChannels()
  })

  it('passes the token through Functions and Realtime', async () => {
    const fn = await client.functions.invoke('whoami')
    expect(fn.error).toBeNull()
    expect(fn.data).toEqual({ sub: userId, role: 'authenticated' })
    const rt = realtimeClient(stack)
    rt.realtime.setAuth(token)
    await subscribed(rt.channel('room'))
    await rt.removeAllChannels()
  })

  it('takes keys minted for anon and service_role as API keys, as the auth-js suite mints them', async () => {
    /** A legacy-style key for `role`, signed by `jwk` (or, with a string, the JWT secret). */
    async function mint(role: string, signer: Record<string, unknown> | string, exp = '1h') {
      const jwt = new SignJWT({ iss: 'supabase-demo', role }).setIssuedAt().setExpirationTime(exp)
      if (typeof signer === 'string') {
        return jwt.setProtectedHeader({ alg: 'HS256' }).sign(new TextEncoder().encode(signer))
      }
      return jwt
        .setProtectedHeader({ alg: String(signer.alg), kid: String(signer.kid) })
        .sign(createPrivateKey({ key: signer as never, format: 'jwk' }))
    }
    const secret = stack.config.keys.jwtSecret
    for (const signer of [keys[0]!, keys[1]!, secret]) {
      const admin = stack.client(await mint('service_role', signer))
      const { data, error } = await admin.auth.admin.getUserById(userId)
      expect(error).toBeNull()
      expect(data.user!.id).toBe(userId)
      const anon = stack.client(await mint('anon', signer))
      const signedIn = await anon.auth.signInWithPassword({
        email: data.user!.email!,
        password: 'correct-horse',
      })
      expect(signedIn.error).toBeNull()
    }
    // Not an API key: a user's token, a key past its expiry, one signed by a stranger's key.
    const refused = [
      token,
      await mint('service_role', keys[0]!, '-1m'),
      await mint('service_role', privateJwk(current, `${current}-now`)),
      await mint('service_role', 'another-secret-with-at-least-32-characters'),
    ]
    for (const key of refused) {
      const { error } = await stack.client(key).auth.admin.getUserById(userId)
      expect(error).toMatchObject({ status: 401, message: 'Invalid API key' })
    }
  })

  it('still verifies the legacy HS256 keys', async () => {
    const { data, error } = await stack
      .client(DEFAULT_SERVICE_ROLE_KEY)
      .from('notes')
      .select('title')
    expect(error).toBeNull()
    expect(data).toHaveLength(2)
    const anon = await fetch(`${stack.url}/rest/v1/notes`, {
      headers: { apikey: DEFAULT_ANON_KEY, authorization: `Bearer ${DEFAULT_ANON_KEY}` },
    })
    expect(anon.status).toBe(200)
  })
})
