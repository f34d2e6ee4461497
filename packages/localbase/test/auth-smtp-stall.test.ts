import { mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { createClient, type SupabaseClient } from '@supabase/supabase-js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DEFAULT_ANON_KEY } from '../src/config/keys.ts'
import { copyFixture, startTestStack, type TestStack } from './helpers.ts'
import { type Inbox, sendMailTo, startInbox } from './smtp-inbox.ts'

// Auth mail is sent after its transaction commits: PGlite is one connection, so a mail
// server that stalls must not stall everyone else's requests. A mail that fails is undone
// in a second transaction, leaving what GoTrue's rollback leaves, but only what is still as
// the failed request left it.

const credentials = { user: 'mailer', pass: 'smtp-secret' }
const noSession = { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false }
const password = 'long-enough-password'

let inbox: Inbox
let stack: TestStack
let project: string
beforeAll(async () => {
  inbox = await startInbox(credentials)
  project = copyFixture('auth-confirm')
  sendMailTo(project, inbox, credentials)
  // A table members read, for a request that needs the database while a mail stalls.
  mkdirSync(join(project, 'supabase', 'migrations'))
  writeFileSync(
    join(project, 'supabase', 'migrations', '20260101000000_notes.sql'),
    `create table public.notes (id int primary key, body text not null);
     insert into public.notes values (1, 'kept');
     alter table public.notes enable row level security;
     create policy notes_read on public.notes for select to authenticated using (true);
     grant select on public.notes to authenticated;`,
  )
  stack = await startTestStack(project, { env: { SMTP_HOST: '' } })
})
afterAll(async () => {
  await stack?.stop()
  await inbox?.close()
  rmSync(project, { recursive: true, force: true })
})

let counter = 0
const newEmail = () => `stall${++counter}-${Date.now()}@example.com`
const client = (): SupabaseClient => createClient(stack.url, DEFAULT_ANON_KEY, { auth: noSession })
const admin = () => stack.admin().auth.admin
const row = async (sql: string, params: unknown[]) =>
  (await stack.db.pg.query<Record<string, unknown>>(sql, params)).rows[0]

/** Everything stored for a user: their row, one-time tokens and PKCE flows. */
const account = (id: string) =>
  row(
    `select to_jsonb(u) as user,
       (select jsonb_agg(to_jsonb(t) order by t.id) from auth.one_time_tokens t
        where t.user_id = u.id) as tokens,
       (select count(*)::int from auth.flow_state f where f.user_id = u.id) as flows
     from auth.users u where id = $1`,
    [id],
  )

async function signedIn(): Promise<{ id: string; email: string; browser: SupabaseClient }> {
  const email = newEmail()
  const { data, error } = await admin().createUser({ email, password, email_confirm: true })
  expect(error).toBeNull()
  const browser = client()
  expect((await browser.auth.signInWithPassword({ email, password })).error).toBeNull()
  return { id: data.user!.id, email, browser }
}

/** The verify link's answer: where it sends the browser. */
async function follow(link: string): Promise<URLSearchParams> {
  const res = await fetch(link, { redirect: 'manual' })
  expect(res.status).toBe(303)
  return new URLSearchParams(new URL(res.headers.get('location')!).hash.slice(1))
}

describe('while the mail server stalls', () => {
  it('another member’s read completes before the stalled sign-up answers', async () => {
    const reader = await signedIn()
    const email = newEmail()
    const stall = inbox.stall()
    const finished: string[] = []
    const signUp = client()
      .auth.signUp({ email, password })
      .finally(() => finished.push('sign-up'))
    await stall.reached
    const read = await reader.browser.from('notes').select('body')
    finished.push('read')
    expect(read.error).toBeNull()
    expect(read.data).toEqual([{ body: 'kept' }])
    // The sign-up's user is committed while its mail is under way.
    expect(
      await row('select email_confirmed_at from auth.users where email = $1', [email]),
    ).toEqual({ email_confirmed_at: null })

    stall.release()
    expect((await signUp).error).toBeNull()
    expect(finished).toEqual(['read', 'sign-up'])
    expect(inbox.to(email)).toHaveLength(1)
  })
})

describe('a mail that fails leaves what GoTrue’s rollback would', () => {
  it('a second sign-up of an unconfirmed user keeps the first link working', async () => {
    const email = newEmail()
    expect((await client().auth.signUp({ email, password })).error).toBeNull()
    const [first] = inbox.to(email)
    const { id } = (await row('select id from auth.users where email = $1', [email]))!
    const before = await account(String(id))

    inbox.refuse = 'Mailbox unavailable'
    const again = await client()
      .auth.signUp({ email, password })
      .finally(() => {
        inbox.refuse = null
      })
    expect(again.error).toMatchObject({ status: 500, message: 'Error sending confirmation email' })
    expect(await account(String(id))).toEqual(before)
    expect((await follow(first!.link)).get('type')).toBe('signup')
  })

  it('an update with a new address that cannot be mailed changes nothing else either', async () => {
    const user = await signedIn()
    const before = await account(user.id)
    inbox.refuse = 'Mailbox unavailable'
    const update = await user.browser.auth
      .updateUser({ email: newEmail(), data: { display_name: 'Changed' } })
      .finally(() => (inbox.refuse = null))
    expect(update.error).toMatchObject({ status: 500, message: 'Error sending email change email' })
    expect(await account(user.id)).toEqual(before)
    const { data } = await admin().getUserById(user.id)
    expect(data.user!.user_metadata).not.toHaveProperty('display_name')
    expect(data.user).not.toHaveProperty('new_email')
  })

  it('a reauthentication nonce that cannot be mailed is not stored', async () => {
    const user = await signedIn()
    const before = await account(user.id)
    inbox.refuse = 'Mailbox unavailable'
    const nonce = await user.browser.auth.reauthenticate().finally(() => (inbox.refuse = null))
    expect(nonce.error).toMatchObject({
      status: 500,
      message: 'Error sending reauthentication email',
    })
    expect(await account(user.id)).toEqual(before)
  })

  it('a resend that went through while the first mail stalled is kept when that mail fails', async () => {
    const email = newEmail()
    const stall = inbox.stall()
    const signUp = client().auth.signUp({ email, password })
    await stall.reached
    expect((await client().auth.resend({ type: 'signup', email })).error).toBeNull()
    stall.release('Mailbox unavailable')
    expect((await signUp).error).toMatchObject({
      status: 500,
      message: 'Error sending confirmation email',
    })
    // The user and the resent link stay: they are the resend's now, not the failed sign-up's.
    const [resent] = inbox.to(email)
    expect((await follow(resent!.link)).get('type')).toBe('signup')
    expect(
      await row('select count(*)::int as n from auth.users where email = $1', [email]),
    ).toEqual({ n: 1 })
  })
})
