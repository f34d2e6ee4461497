import { createClient } from '@supabase/supabase-js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  DEFAULT_ANON_KEY,
  DEFAULT_PUBLISHABLE_KEY,
  DEFAULT_SECRET_KEY,
} from '../src/config/keys.ts'
import { mintToken, signIn, type TestUser } from './fixtures/rest/users.ts'
import { startTestStack, type TestStack } from './helpers.ts'

// Who is asking: JWT errors, key styles, and owner-only RLS for anon, two users and service_role.

let stack: TestStack
let alice: TestUser
let bob: TestUser
const titles = (rows: { title: string }[] | null) => rows?.map((r) => r.title).sort()

beforeAll(async () => {
  stack = await startTestStack('rest')
  alice = await signIn(stack, 'alice@example.test')
  bob = await signIn(stack, 'bob@example.test')
})
afterAll(() => stack?.stop())

describe('owner-only RLS', () => {
  it('lets each user insert their own rows and see only them', async () => {
    expect((await alice.client.from('notes').insert({ title: 'alice 1' })).status).toBe(201)
    expect((await alice.client.from('notes').insert({ title: 'alice 2' })).status).toBe(201)
    const bobs = await bob.client
      .from('notes')
      .insert({ title: 'bob 1' })
      .select('title, owner_id')
      .single()
    expect(bobs.data).toEqual({ title: 'bob 1', owner_id: bob.id })
    expect(titles((await alice.client.from('notes').select('title')).data)).toEqual([
      'alice 1',
      'alice 2',
    ])
    expect(titles((await bob.client.from('notes').select('title')).data)).toEqual(['bob 1'])
  })

  it('shows anon nothing and refuses its writes with 401', async () => {
    const anon = stack.client()
    expect((await anon.from('notes').select('title')).data).toEqual([])
    const { status, error } = await anon.from('notes').insert({ title: 'anon' })
    expect(status).toBe(401)
    expect(error).toEqual({
      code: '42501',
      details: null,
      hint: null,
      message: 'permission denied for table notes',
    })
  })

  it("refuses a row for someone else with 403, and leaves others' rows untouched", async () => {
    const forged = await bob.client.from('notes').insert({ title: 'forged', owner_id: alice.id })
    expect(forged.status).toBe(403)
    expect(forged.error).toEqual({
      code: '42501',
      details: null,
      hint: null,
      message: 'new row violates row-level security policy for table "notes"',
    })
    const update = await bob.client
      .from('notes')
      .update({ title: 'hacked' }, { count: 'exact' })
      .like('title', 'alice%')
    expect(update.count).toBe(0)
    const removed = await bob.client
      .from('notes')
      .delete({ count: 'exact' })
      .like('title', 'alice%')
    expect(removed.count).toBe(0)
    expect(titles((await alice.client.from('notes').select('title')).data)).toEqual([
      'alice 1',
      'alice 2',
    ])
  })

  it('lets owners change and delete their own rows', async () => {
    const { data } = await alice.client
      .from('notes')
      .update({ title: 'alice 2b' })
      .eq('title', 'alice 2')
      .select('title')
    expect(data).toEqual([{ title: 'alice 2b' }])
    const { count } = await alice.client
      .from('notes')
      .delete({ count: 'exact' })
      .eq('title', 'alice 1')
    expect(count).toBe(1)
  })

  it('shows service_role everything, with the legacy and the new secret key', async () => {
    const legacy = await stack.admin().from('notes').select('title')
    expect(titles(legacy.data)).toEqual(['alice 2b', 'bob 1'])
    const secret = await stack.client(DEFAULT_SECRET_KEY).from('notes').select('title')
    expect(titles(secret.data)).toEqual(['alice 2b', 'bob 1'])
    const publishable = await stack.client(DEFAULT_PUBLISHABLE_KEY).from('notes').select('title')
    expect(publishable.data).toEqual([])
  })

  it('puts the claims and headers into the transaction', async () => {
    expect((await alice.client.rpc('whoami')).data).toBe(alice.id)
    expect((await stack.client().rpc('whoami')).data).toBe('nobody')
    const client = createClient(stack.url, DEFAULT_ANON_KEY, {
      global: { headers: { 'X-Trace-Me': 'yes' } },
      auth: { persistSession: false },
    })
    expect((await client.rpc('request_header', { name: 'x-trace-me' })).data).toBe('yes')
  })
})

describe('JWT errors', () => {
  const get = (token: string) =>
    fetch(`${stack.url}/rest/v1/tags?select=id`, {
      headers: { apikey: DEFAULT_ANON_KEY, authorization: `Bearer ${token}` },
    })

  it('answers 401 PGRST303 for an expired token', async () => {
    const now = Math.floor(Date.now() / 1000)
    const token = await mintToken(
      stack.config.keys.jwtSecret,
      { sub: alice.id, role: 'authenticated' },
      now - 10,
    )
    const res = await get(token)
    expect(res.status).toBe(401)
    expect(await res.json()).toEqual({
      code: 'PGRST303',
      details: null,
      hint: null,
      message: 'JWT expired',
    })
    expect(res.headers.get('www-authenticate')).toBe(
      'Bearer error="invalid_token", error_description="JWT expired"',
    )
  })

  it('answers 401 PGRST303 once a token it accepted before has expired', async () => {
    // The gateway keeps verified tokens (gateway/caller.ts); it must not outlive `exp`.
    const exp = Math.floor(Date.now() / 1000) + 2
    const token = await mintToken(
      stack.config.keys.jwtSecret,
      { sub: alice.id, role: 'authenticated' },
      exp,
    )
    expect((await get(token)).status).toBe(200)
    await new Promise((resolve) => setTimeout(resolve, exp * 1000 - Date.now() + 50))
    const res = await get(token)
    expect(res.status).toBe(401)
    expect((await res.json()).code).toBe('PGRST303')
  })

  it('answers 401 PGRST301 for a token with a wrong signature or shape', async () => {
    const token = await mintToken('another-secret-another-secret-another-secret', {
      role: 'authenticated',
    })
    const signature = await get(token)
    expect(signature.status).toBe(401)
    expect((await signature.json()).code).toBe('PGRST301')
    const garbage = await get('not-a-jwt')
    expect(garbage.status).toBe(401)
    expect((await garbage.json()).code).toBe('PGRST301')
  })

  it("answers the gateway's 401 for an unknown API key", async () => {
    const res = await fetch(`${stack.url}/rest/v1/tags`, {
      headers: { apikey: 'sb_publishable_nope' },
    })
    expect(res.status).toBe(401)
    expect(await res.json()).toEqual({
      message: 'Unregistered API key',
      hint: 'Double check the provided API key as it is not registered for this project.',
    })
  })

  it('answers a database error for a role that does not exist', async () => {
    const token = await mintToken(stack.config.keys.jwtSecret, { role: 'no_such_role' })
    const res = await get(token)
    expect(res.status).toBeLessThan(500)
    expect(res.status).toBeGreaterThanOrEqual(400)
  })
})
