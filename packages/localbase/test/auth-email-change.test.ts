import { rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { createClient, type SupabaseClient } from '@supabase/supabase-js'
import { decodeJwt } from 'jose'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DEFAULT_ANON_KEY } from '../src/config/keys.ts'
import { copyFixture, startTestStack, type TestStack } from './helpers.ts'

// PUT /user {email} as GoTrue (user.go, mail.go sendEmailChange, verify.go
// emailChangeVerify): the request records new_email and mails links; the address moves only
// once they are used. Three projects: confirmations on with double_confirm_changes (GoTrue's
// secure email change, the CLI default), autoconfirm, and double_confirm_changes off.

const password = 'long-enough-password'
const singleConfirmation =
  'Confirmation link accepted. Please proceed to confirm link sent to the other email'
const noSession = { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false }

let counter = 0
const newEmail = () => `change${++counter}-${Date.now()}@example.com`

type Mail = { to: string; subject: string; text: string; link: string }

/** A project's stack and the ways these tests use it. */
function project(start: () => Promise<TestStack>) {
  let stack: TestStack
  beforeAll(async () => {
    stack = await start()
  })
  afterAll(() => stack?.stop())

  const changeMails = async (email: string): Promise<Mail[]> => {
    const res = await fetch(
      `${stack.url}/auth/v1/mailbox/messages?email=${encodeURIComponent(email)}`,
    )
    return ((await res.json()) as Mail[]).filter((m) => m.subject === 'Confirm Email Change')
  }
  return {
    get stack() {
      return stack
    },
    /** The newest email change mail to an address. */
    async mailTo(email: string): Promise<Mail> {
      const [mail] = await changeMails(email)
      expect(mail).toBeDefined()
      return mail!
    },
    changeMails,
    /** A confirmed user, signed in with a client of the given flow. */
    async signedIn(flowType: 'implicit' | 'pkce' = 'implicit') {
      const email = newEmail()
      const created = await stack
        .admin()
        .auth.admin.createUser({ email, password, email_confirm: true })
      expect(created.error).toBeNull()
      const client: SupabaseClient = createClient(stack.url, DEFAULT_ANON_KEY, {
        auth: { ...noSession, flowType },
      })
      expect((await client.auth.signInWithPassword({ email, password })).error).toBeNull()
      return { client, id: created.data.user!.id, email }
    },
    async emailOf(id: string): Promise<string | undefined> {
      return (await stack.admin().auth.admin.getUserById(id)).data.user!.email
    },
  }
}

const codeOf = (mail: Mail) => /code: (\d{6})/.exec(mail.text)![1]!

/** Follows a mailed link as a browser would; the redirect it answers with. */
async function follow(link: string) {
  const res = await fetch(link, { redirect: 'manual' })
  expect(res.status).toBe(303)
  const location = new URL(res.headers.get('location')!)
  return { location, fragment: new URLSearchParams(location.hash.slice(1)) }
}

describe('with confirmations and double_confirm_changes', () => {
  const p = project(() => startTestStack('auth-confirm'))

  it('records new_email and mails both addresses; the old address holds until both confirm', async () => {
    const user = await p.signedIn()
    const next = newEmail()
    const { data, error } = await user.client.auth.updateUser({ email: next })
    expect(error).toBeNull()
    expect(data.user).toMatchObject({ email: user.email, new_email: next })
    expect(data.user!.email_change_sent_at).toBeTruthy()
    const toNew = await p.mailTo(next)
    const toOld = await p.mailTo(user.email)
    expect(toNew.to).toBe(next)
    expect(toOld.to).toBe(user.email)
    expect(toNew.text).toContain(`from ${user.email} to ${next}`)

    // Meanwhile the account, its user JSON and its tokens keep the old address.
    const refreshed = await user.client.auth.refreshSession()
    expect(decodeJwt(refreshed.data.session!.access_token).email).toBe(user.email)
    expect((await user.client.auth.getUser()).data.user).toMatchObject({
      email: user.email,
      new_email: next,
    })

    // The first confirmation answers only a message (supabase-js reads it as no user).
    const first = await fetch(`${p.stack.url}/auth/v1/verify`, {
      method: 'POST',
      headers: { apikey: DEFAULT_ANON_KEY, 'content-type': 'application/json' },
      body: JSON.stringify({ type: 'email_change', email: next, token: codeOf(toNew) }),
    })
    expect(first.status).toBe(200)
    expect(await first.json()).toEqual({ msg: singleConfirmation, code: '200' })
    expect(await p.emailOf(user.id)).toBe(user.email)

    const second = await p.stack
      .client()
      .auth.verifyOtp({ email: user.email, token: codeOf(toOld), type: 'email_change' })
    expect(second.error).toBeNull()
    expect(second.data.user!.email).toBe(next)
    expect(second.data.user).not.toHaveProperty('new_email')
    expect(second.data.user!.identities![0]!.identity_data!.email).toBe(next)
    expect(decodeJwt(second.data.session!.access_token).email).toBe(next)

    const oldSignIn = await p.stack
      .client()
      .auth.signInWithPassword({ email: user.email, password })
    expect(oldSignIn.error).toMatchObject({ code: 'invalid_credentials' })
    expect(
      (await p.stack.client().auth.signInWithPassword({ email: next, password })).error,
    ).toBeNull()
  })

  it('takes the links in either order, each once', async () => {
    const user = await p.signedIn()
    const next = newEmail()
    await user.client.auth.updateUser({ email: next })
    const old = await follow((await p.mailTo(user.email)).link)
    expect(Object.fromEntries(old.fragment)).toEqual({ message: singleConfirmation, sb: '' })
    const again = await follow((await p.mailTo(user.email)).link)
    expect(again.fragment.get('error_code')).toBe('otp_expired')
    expect(await p.emailOf(user.id)).toBe(user.email)

    const done = await follow((await p.mailTo(next)).link)
    expect(done.fragment.get('type')).toBe('email_change')
    expect(decodeJwt(done.fragment.get('access_token')!).email).toBe(next)
    expect(await p.emailOf(user.id)).toBe(next)
  })

  it('starts over on a new request or a resend: earlier links stop working', async () => {
    const user = await p.signedIn()
    const first = newEmail()
    await user.client.auth.updateUser({ email: first })
    const stale = [await p.mailTo(first), await p.mailTo(user.email)]
    const second = newEmail()
    await user.client.auth.updateUser({ email: second })
    for (const mail of stale) {
      expect((await follow(mail.link)).fragment.get('error_code')).toBe('otp_expired')
    }
    const resent = await p.stack.client().auth.resend({ type: 'email_change', email: user.email })
    expect(resent.error).toBeNull()
    expect(await p.changeMails(second)).toHaveLength(2)
    const [latest, earlier] = await p.changeMails(second)
    expect((await follow(earlier!.link)).fragment.get('error_code')).toBe('otp_expired')
    await follow(latest!.link)
    await follow((await p.mailTo(user.email)).link)
    expect(await p.emailOf(user.id)).toBe(second)
  })

  it('refuses an address another account has, and mails nothing', async () => {
    const user = await p.signedIn()
    const other = await p.signedIn()
    const { error } = await user.client.auth.updateUser({ email: other.email })
    expect(error).toMatchObject({ status: 422, code: 'email_exists' })
    expect(error!.message).toBe('A user with this email address has already been registered')
    expect(await p.changeMails(user.email)).toEqual([])
  })

  it('goes through PKCE: the second link redirects with a code for the new session', async () => {
    const user = await p.signedIn('pkce')
    const next = newEmail()
    expect((await user.client.auth.updateUser({ email: next })).error).toBeNull()
    const toNew = await p.mailTo(next)
    expect(new URL(toNew.link).searchParams.get('token')).toMatch(/^pkce_/)
    const first = await follow(toNew.link)
    expect(first.location.searchParams.get('message')).toBe(singleConfirmation)
    expect(first.location.searchParams.get('code')).toBeNull()

    const second = await follow((await p.mailTo(user.email)).link)
    const code = second.location.searchParams.get('code')!
    const { data, error } = await user.client.auth.exchangeCodeForSession(code)
    expect(error).toBeNull()
    expect(data.user!.email).toBe(next)
    expect(decodeJwt(data.session!.access_token).amr).toEqual([
      { method: 'email_change', timestamp: expect.any(Number) },
    ])
  })
})

describe('on an autoconfirm project', () => {
  const p = project(() => startTestStack('auth'))

  it('still confirms the new address by mail; the old address’s link alone changes nothing', async () => {
    const user = await p.signedIn()
    const next = newEmail()
    const { data, error } = await user.client.auth.updateUser({ email: next })
    expect(error).toBeNull()
    expect(data.user).toMatchObject({ email: user.email, new_email: next })
    const oldLink = new URL((await p.mailTo(user.email)).link)
    const old = await p.stack.client().auth.verifyOtp({
      token_hash: oldLink.searchParams.get('token')!,
      type: 'email_change',
    })
    expect(old).toEqual({ data: { user: null, session: null }, error: null })
    expect(await p.emailOf(user.id)).toBe(user.email)
    const done = await follow((await p.mailTo(next)).link)
    expect(decodeJwt(done.fragment.get('access_token')!).email).toBe(next)
  })

  it('completes on the new address’s link alone', async () => {
    const user = await p.signedIn()
    const next = newEmail()
    await user.client.auth.updateUser({ email: next })
    const done = await follow((await p.mailTo(next)).link)
    expect(done.fragment.get('type')).toBe('email_change')
    expect(await p.emailOf(user.id)).toBe(next)
  })

  it('refuses an address another account has', async () => {
    const user = await p.signedIn()
    const other = await p.signedIn()
    const { error } = await user.client.auth.updateUser({ email: other.email })
    expect(error).toMatchObject({ status: 422, code: 'email_exists' })
  })

  it('refuses the link when another account took the address meanwhile', async () => {
    const user = await p.signedIn()
    const next = newEmail()
    await user.client.auth.updateUser({ email: next })
    await p.stack.admin().auth.admin.createUser({ email: next, password, email_confirm: true })
    const { fragment } = await follow((await p.mailTo(next)).link)
    expect(fragment.get('error_code')).toBe('email_exists')
    expect(await p.emailOf(user.id)).toBe(user.email)
  })
})

describe('with double_confirm_changes = false', () => {
  let workdir: string
  const p = project(async () => {
    workdir = copyFixture('auth-confirm')
    writeFileSync(
      join(workdir, 'supabase', 'config.toml'),
      `[auth]
site_url = "http://app.example.test:3000"

[auth.email]
enable_confirmations = true
double_confirm_changes = false
`,
    )
    return startTestStack(workdir)
  })
  afterAll(() => rmSync(workdir, { recursive: true, force: true }))

  it('mails only the new address, whose link completes the change', async () => {
    const user = await p.signedIn()
    const next = newEmail()
    await user.client.auth.updateUser({ email: next })
    expect(await p.changeMails(user.email)).toEqual([])
    const done = await follow((await p.mailTo(next)).link)
    expect(decodeJwt(done.fragment.get('access_token')!).email).toBe(next)
  })

  it('makes no generate_link for the current address', async () => {
    const user = await p.signedIn()
    const { error } = await p.stack.admin().auth.admin.generateLink({
      type: 'email_change_current',
      email: user.email,
      newEmail: newEmail(),
    })
    expect(error).toMatchObject({
      status: 400,
      message: 'Enable secure email change to generate link for current email',
    })
  })
})
