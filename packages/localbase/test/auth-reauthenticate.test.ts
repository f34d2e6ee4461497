import type { SupabaseClient } from '@supabase/supabase-js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestStack, type TestStack } from './helpers.ts'

// supabase.auth.reauthenticate() mails a nonce; with secure_password_change on, a password
// change from a session older than a day needs it (GoTrue's user.go), and spends it.

let stack: TestStack
beforeAll(async () => {
  stack = await startTestStack('auth-reauth')
})
afterAll(() => stack?.stop())

let counter = 0
async function signedIn(): Promise<{ client: SupabaseClient; email: string }> {
  const client = stack.client()
  const email = `reauth${++counter}-${Date.now()}@example.com`
  const { error } = await client.auth.signUp({ email, password: 'correct-horse' })
  expect(error).toBeNull()
  return { client, email }
}

async function latestNonce(email: string): Promise<string> {
  const res = await fetch(
    `${stack.url}/auth/v1/mailbox/messages?email=${encodeURIComponent(email)}`,
  )
  const [mail] = (await res.json()) as { subject: string; text: string }[]
  expect(mail!.subject).toBe('Confirm reauthentication')
  return /Enter the code: (\d{6})/.exec(mail!.text)![1]!
}

/** Makes the client's session look a day and a minute old. */
async function ageSession(client: SupabaseClient) {
  const { data } = await client.auth.getSession()
  const sessionId = JSON.parse(atob(data.session!.access_token.split('.')[1]!)).session_id
  await stack.db.pg.query(
    `update auth.sessions set created_at = now() - interval '1 day 1 minute' where id = $1`,
    [sessionId],
  )
}

describe('reauthenticate', () => {
  it('lets a fresh session change the password without a nonce', async () => {
    const { client } = await signedIn()
    const { error } = await client.auth.updateUser({ password: 'battery-staple' })
    expect(error).toBeNull()
  })

  it('asks an older session for the mailed nonce, takes it once, and refuses a wrong one', async () => {
    const { client, email } = await signedIn()
    await ageSession(client)
    const bare = await client.auth.updateUser({ password: 'battery-staple' })
    expect(bare.error).toMatchObject({ status: 400, code: 'reauthentication_needed' })

    const sent = await client.auth.reauthenticate()
    expect(sent.error).toBeNull()
    const nonce = await latestNonce(email)
    const wrong = String((Number(nonce) + 1) % 1_000_000).padStart(6, '0')
    const refused = await client.auth.updateUser({ password: 'battery-staple', nonce: wrong })
    expect(refused.error).toMatchObject({ status: 422, code: 'reauthentication_not_valid' })

    const changed = await client.auth.updateUser({ password: 'battery-staple', nonce })
    expect(changed.error).toBeNull()
    const again = await client.auth.updateUser({ password: 'horse-battery', nonce })
    expect(again.error).toMatchObject({ status: 422, code: 'reauthentication_not_valid' })

    const fresh = stack.client()
    const signIn = await fresh.auth.signInWithPassword({ email, password: 'battery-staple' })
    expect(signIn.error).toBeNull()
  })

  it('refuses an expired nonce, and a request without a session', async () => {
    const { client, email } = await signedIn()
    await ageSession(client)
    await client.auth.reauthenticate()
    const nonce = await latestNonce(email)
    await stack.db.pg.query(
      `update auth.users set reauthentication_sent_at = now() - interval '2 hours' where email = $1`,
      [email],
    )
    const late = await client.auth.updateUser({ password: 'battery-staple', nonce })
    expect(late.error).toMatchObject({ status: 422, code: 'reauthentication_not_valid' })
    const anonymous = await fetch(`${stack.url}/auth/v1/reauthenticate`, {
      headers: { apikey: stack.config.keys.anonKey },
    })
    expect(anonymous.status).toBe(401)
  })
})
