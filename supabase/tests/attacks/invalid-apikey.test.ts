import { request } from 'node:http'
import { createClient, FunctionsHttpError, type SupabaseClient } from '@supabase/supabase-js'
import { afterAll, describe, expect, it } from 'vitest'
import { DEFAULT_PUBLISHABLE_KEY } from '../../../packages/localbase/src/index.ts'
import { adminClient, clientFor, createUser, startStack } from '../stack.ts'

// Issue #14, finding 6: /auth/v1 took any `apikey` (a sign-up with `apikey: garbage` created
// an account) while /rest/v1 answered 401. On hosted Supabase the API gateway refuses a key
// that is not the project's before any service sees the request, with one answer for all:
// "Invalid API key" for a legacy-style key or anything unrecognisable, "Unregistered API key"
// for an unknown sb_ key. Each attempt below goes through supabase-js (or, for the socket's
// HTTP answer, a plain upgrade request) and must be refused and leave nothing behind.

const stack = await startStack()
afterAll(() => stack.stop())

const noSession = { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false }
const admin = adminClient(stack)

const keys = [
  {
    name: 'garbage',
    key: 'garbage',
    refusal: {
      message: 'Invalid API key',
      hint: 'Double check your Supabase `anon` or `service_role` API key.',
    },
  },
  {
    name: 'an unknown sb_publishable_ key',
    key: 'sb_publishable_NotThisProjectsKey_0123456',
    refusal: {
      message: 'Unregistered API key',
      hint: 'Double check the provided API key as it is not registered for this project.',
    },
  },
]

let serial = 0
const address = (who: string) => `${who}.${++serial}.${Date.now()}@example.test`

async function accountCount(email: string): Promise<number> {
  const { rows } = await stack.db.pg.query<{ n: number }>(
    'select count(*)::int as n from auth.users where email = $1',
    [email],
  )
  return rows[0]!.n
}

/** The HTTP answer to a WebSocket upgrade, which a refused socket gets instead of a 101. */
function upgradeAnswer(url: string): Promise<{ status: number; body: unknown }> {
  return new Promise((resolve, reject) => {
    const req = request(url, {
      headers: {
        connection: 'Upgrade',
        upgrade: 'websocket',
        'sec-websocket-version': '13',
        'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==',
      },
    })
    req.on('response', (res) => {
      let text = ''
      res.on('data', (chunk) => (text += chunk))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }))
    })
    req.on('upgrade', (_res, socket) => {
      socket.destroy()
      reject(new Error('the socket was accepted'))
    })
    req.on('error', reject)
    req.end()
  })
}

/** The first status a channel reports when subscribing. */
function firstStatus(client: SupabaseClient): Promise<string> {
  return new Promise((resolve) => {
    client.channel(`attack-${++serial}`).subscribe((status) => resolve(status))
  })
}

it('still serves the real keys, so the refusals below are about the keys', async () => {
  const email = address('control')
  const real = createClient(stack.url, DEFAULT_PUBLISHABLE_KEY, { auth: noSession })
  const { error } = await real.auth.signUp({ email, password: 'long enough password' })
  expect(error).toBeNull()
  expect(await accountCount(email)).toBe(1)
})

describe.each(keys)('with $name as the apikey', ({ key, refusal }) => {
  const attacker = createClient(stack.url, key, { auth: noSession })

  it('sign-up is refused with 401 and creates no account', async () => {
    const email = address('mallory')
    const { data, error } = await attacker.auth.signUp({ email, password: 'long enough password' })
    expect(error).toMatchObject({ status: 401, message: refusal.message })
    expect(data.user).toBeNull()
    expect(await accountCount(email)).toBe(0)
  })

  it('sign-in is refused with 401 even with the right password, and starts no session', async () => {
    const email = address('victim')
    const created = await admin.auth.admin.createUser({
      email,
      password: 'long enough password',
      email_confirm: true,
    })
    expect(created.error).toBeNull()
    const { data, error } = await attacker.auth.signInWithPassword({
      email,
      password: 'long enough password',
    })
    expect(error).toMatchObject({ status: 401, message: refusal.message })
    expect(data.session).toBeNull()
    const { rows } = await stack.db.pg.query<{ n: number }>(
      'select count(*)::int as n from auth.sessions where user_id = $1',
      [created.data.user!.id],
    )
    expect(rows[0]!.n).toBe(0)
  })

  it('the hosted body comes back for auth, REST, storage and functions alike', async () => {
    for (const path of [
      '/auth/v1/settings',
      '/rest/v1/workspaces?select=id',
      '/storage/v1/bucket',
    ]) {
      const res = await fetch(`${stack.url}${path}`, {
        headers: { apikey: key, authorization: `Bearer ${key}` },
      })
      expect([path, res.status]).toEqual([path, 401])
      expect(await res.json()).toEqual(refusal)
    }
    const { error } = await attacker.functions.invoke('models')
    expect(error).toBeInstanceOf(FunctionsHttpError)
    const response = (error as FunctionsHttpError).context as Response
    expect(response.status).toBe(401)
    expect(await response.json()).toEqual(refusal)
  })

  it('a storage upload is refused with 401 and stores nothing, even with a user session', async () => {
    const user = await createUser(stack, 'uploader')
    const name = `${crypto.randomUUID()}/attack-${++serial}.txt`
    const withSession = createClient(stack.url, key, {
      auth: noSession,
      global: { headers: { Authorization: `Bearer ${user.jwt}` } },
    })
    for (const client of [attacker, withSession]) {
      const { data, error } = await client.storage.from('documents').upload(name, 'payload')
      expect(data).toBeNull()
      expect(error).toMatchObject({ status: 401, message: refusal.message })
    }
    const { rows } = await stack.db.pg.query<{ n: number }>(
      'select count(*)::int as n from storage.objects where name = $1',
      [name],
    )
    expect(rows[0]!.n).toBe(0)
  })

  it('the Realtime socket is refused with 401 before it opens', async () => {
    const socket = `${stack.url}/realtime/v1/websocket?apikey=${encodeURIComponent(key)}&vsn=2.0.0`
    expect(await upgradeAnswer(socket)).toEqual({ status: 401, body: refusal })
    expect(await firstStatus(attacker)).not.toBe('SUBSCRIBED')
    await attacker.removeAllChannels()
    const broadcast = await fetch(`${stack.url}/realtime/v1/api/broadcast`, {
      method: 'POST',
      headers: { apikey: key, 'content-type': 'application/json' },
      body: JSON.stringify({ messages: [{ topic: 'room', event: 'x', payload: {} }] }),
    })
    expect(broadcast.status).toBe(401)
    expect(await broadcast.json()).toEqual(refusal)
  })
})

it("refuses a user's access token as the apikey: only the project's keys are API keys", async () => {
  const user = await createUser(stack, 'impostor')
  const res = await fetch(`${stack.url}/rest/v1/workspaces?select=id`, {
    headers: { apikey: user.jwt, authorization: `Bearer ${user.jwt}` },
  })
  expect(res.status).toBe(401)
  expect(await res.json()).toEqual(keys[0]!.refusal)
  // The same token as the session, with the real key, is of course fine.
  const { error } = await clientFor(stack, user).from('workspaces').select('id')
  expect(error).toBeNull()
})
