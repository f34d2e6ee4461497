import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DEFAULT_SECRET_KEY } from '../src/config/keys.ts'
import { startTestStack, type TestStack } from './helpers.ts'

// The admin API through supabase-js `auth.admin` (service key only).

let stack: TestStack
beforeAll(async () => {
  stack = await startTestStack('auth')
})
afterAll(() => stack?.stop())

let counter = 0
const newEmail = () => `admin${++counter}-${Date.now()}@example.com`

const signIn = (email: string, password = 'correct-horse') =>
  stack.client().auth.signInWithPassword({ email, password })

describe('who may use it', () => {
  it('refuses the anon key and a user token with 403 not_admin', async () => {
    const anon = await stack.client().auth.admin.listUsers()
    expect(anon.error).toMatchObject({ status: 403, code: 'not_admin' })
    expect(anon.error!.message).toBe('User not allowed')

    const email = newEmail()
    const { data } = await stack.client().auth.signUp({ email, password: 'correct-horse' })
    const res = await fetch(`${stack.url}/auth/v1/admin/users`, {
      headers: { authorization: `Bearer ${data.session!.access_token}` },
    })
    expect(res.status).toBe(403)
    expect(await res.json()).toEqual({
      code: 403,
      error_code: 'not_admin',
      msg: 'User not allowed',
    })
  })

  it('accepts the legacy service_role key and the sb_secret key', async () => {
    expect((await stack.admin().auth.admin.listUsers()).error).toBeNull()
    expect((await stack.client(DEFAULT_SECRET_KEY).auth.admin.listUsers()).error).toBeNull()
  })
})

describe('users', () => {
  it('creates a confirmed user with metadata who can sign in', async () => {
    const email = newEmail()
    const { data, error } = await stack.admin().auth.admin.createUser({
      email,
      password: 'correct-horse',
      email_confirm: true,
      user_metadata: { name: 'Grace' },
      app_metadata: { plan: 'pro' },
    })
    expect(error).toBeNull()
    expect(data.user).toMatchObject({
      email,
      user_metadata: { name: 'Grace' },
      app_metadata: { provider: 'email', providers: ['email'], plan: 'pro' },
    })
    const signedIn = await signIn(email)
    expect(signedIn.error).toBeNull()
    expect(signedIn.data.user!.app_metadata.plan).toBe('pro')
  })

  it('creates an unconfirmed user who gets email_not_confirmed', async () => {
    const email = newEmail()
    await stack.admin().auth.admin.createUser({ email, password: 'correct-horse' })
    const { error } = await signIn(email)
    expect(error).toMatchObject({ status: 400, code: 'email_not_confirmed' })
    expect(error!.message).toBe('Email not confirmed')
  })

  it('refuses a duplicate email and a weak password', async () => {
    const email = newEmail()
    await stack.admin().auth.admin.createUser({ email, password: 'correct-horse' })
    const dup = await stack.admin().auth.admin.createUser({ email, password: 'correct-horse' })
    expect(dup.error).toMatchObject({ status: 422, code: 'email_exists' })
    const weak = await stack.admin().auth.admin.createUser({ email: newEmail(), password: 'x' })
    expect(weak.error).toMatchObject({ status: 422, code: 'weak_password' })
  })

  it('gets, updates (metadata, ban, confirmation) and deletes a user by id', async () => {
    const admin = stack.admin().auth.admin
    const email = newEmail()
    const created = (await admin.createUser({ email, password: 'correct-horse' })).data.user!
    const got = await admin.getUserById(created.id)
    expect(got.data.user).toMatchObject({ id: created.id, email })

    const confirmed = await admin.updateUserById(created.id, {
      email_confirm: true,
      app_metadata: { role: 'editor' },
      user_metadata: { bio: 'hi' },
    })
    expect(confirmed.error).toBeNull()
    expect(confirmed.data.user!.email_confirmed_at).toBeTruthy()
    expect(confirmed.data.user!.app_metadata).toEqual({
      provider: 'email',
      providers: ['email'],
      role: 'editor',
    })
    expect((await signIn(email)).error).toBeNull()

    const banned = await admin.updateUserById(created.id, { ban_duration: '24h' })
    expect(banned.data.user!.banned_until).toBeTruthy()
    expect((await signIn(email)).error).toMatchObject({ status: 400, code: 'user_banned' })
    await admin.updateUserById(created.id, { ban_duration: 'none' })
    expect((await signIn(email)).error).toBeNull()

    const bad = await admin.updateUserById(created.id, { ban_duration: 'forever' })
    expect(bad.error).toMatchObject({ status: 400, code: 'validation_failed' })

    expect((await admin.deleteUser(created.id)).error).toBeNull()
    const gone = await admin.getUserById(created.id)
    expect(gone.error).toMatchObject({ status: 404, code: 'user_not_found' })
    const { rows } = await stack.db.pg.query('select 1 from public.profiles where id = $1', [
      created.id,
    ])
    expect(rows).toEqual([])
  })

  it('answers an id that is not a UUID with 404', async () => {
    // auth-js checks this itself, so ask over the wire.
    const res = await fetch(`${stack.url}/auth/v1/admin/users/not-a-uuid`, {
      headers: { authorization: `Bearer ${DEFAULT_SECRET_KEY}` },
    })
    expect(res.status).toBe(404)
    expect(await res.json()).toEqual({
      code: 404,
      error_code: 'validation_failed',
      msg: 'user_id must be an UUID',
    })
  })

  it('lists users a page at a time with the total', async () => {
    const admin = stack.admin().auth.admin
    for (let i = 0; i < 3; i++) await admin.createUser({ email: newEmail() })
    const all = await admin.listUsers({ page: 1, perPage: 1000 })
    const total = all.data.users.length
    expect(total).toBeGreaterThanOrEqual(4)
    const first = await admin.listUsers({ page: 1, perPage: 2 })
    expect(first.error).toBeNull()
    expect(first.data.users).toHaveLength(2)
    expect(first.data).toMatchObject({ total, nextPage: 2, aud: 'authenticated' })
    const second = await admin.listUsers({ page: 2, perPage: 2 })
    expect(second.data.users[0]!.id).toBe(all.data.users[2]!.id)
    const bad = await fetch(`${stack.url}/auth/v1/admin/users?page=0`, {
      headers: { authorization: `Bearer ${DEFAULT_SECRET_KEY}` },
    })
    expect(bad.status).toBe(400)
  })
})

describe('generate_link', () => {
  it('makes a magic link for an existing user without sending mail', async () => {
    const email = newEmail()
    await stack
      .admin()
      .auth.admin.createUser({ email, password: 'correct-horse', email_confirm: true })
    const { data, error } = await stack.admin().auth.admin.generateLink({
      type: 'magiclink',
      email,
      options: { redirectTo: 'https://allowed.example.com/in' },
    })
    expect(error).toBeNull()
    expect(data.user!.email).toBe(email)
    expect(data.properties).toMatchObject({
      verification_type: 'magiclink',
      redirect_to: 'https://allowed.example.com/in',
      email_otp: expect.stringMatching(/^\d{6}$/),
    })
    expect(new URL(data.properties!.action_link).searchParams.get('token')).toBe(
      data.properties!.hashed_token,
    )
    const mails = await fetch(`${stack.url}/auth/v1/mailbox/messages?email=${email}`)
    expect(await mails.json()).toEqual([])
    const client = stack.client()
    const verified = await client.auth.verifyOtp({
      token_hash: data.properties!.hashed_token,
      type: 'magiclink',
    })
    expect(verified.error).toBeNull()
    expect(verified.data.user!.email).toBe(email)
  })

  it('signs up a new user with type signup, and refuses recovery for an unknown one', async () => {
    const email = newEmail()
    const { data, error } = await stack.admin().auth.admin.generateLink({
      type: 'signup',
      email,
      password: 'correct-horse',
    })
    expect(error).toBeNull()
    expect(data.properties!.verification_type).toBe('signup')
    expect(data.user!.email_confirmed_at).toBeUndefined()
    const verified = await stack
      .client()
      .auth.verifyOtp({ email, token: data.properties!.email_otp, type: 'signup' })
    expect(verified.error).toBeNull()
    expect((await signIn(email)).error).toBeNull()

    const missing = await stack
      .admin()
      .auth.admin.generateLink({ type: 'recovery', email: newEmail() })
    expect(missing.error).toMatchObject({ status: 404, code: 'user_not_found' })
  })
})

describe('an unknown user id', () => {
  // auth-js's suite: updateUserById on a missing id is a 404, also when the update sets an email
  // (whose identity row must not be written first and fail its foreign key).
  it('answers 404 user_not_found to updates, with or without an email', async () => {
    const admin = stack.admin().auth.admin
    const id = '83fd9e20-7a80-46e4-bf29-a86e3d6bbf66'
    for (const attributes of [{ email: newEmail() }, { user_metadata: { a: 1 } }]) {
      const { data, error } = await admin.updateUserById(id, attributes)
      expect(error).toMatchObject({ status: 404, code: 'user_not_found' })
      expect(data.user).toBeNull()
    }
    const { rows } = await stack.db.pg.query('select 1 from auth.identities where user_id = $1', [
      id,
    ])
    expect(rows).toEqual([])
  })
})

describe('generateLink for an email change', () => {
  // The fixture is autoconfirm, where the new address's link alone moves the address.
  it('makes an email_change_new link that moves the address when verified', async () => {
    const admin = stack.admin().auth.admin
    const email = newEmail()
    const next = newEmail()
    expect((await admin.createUser({ email, password: 'correct-horse' })).error).toBeNull()
    const { data, error } = await admin.generateLink({
      type: 'email_change_new',
      email,
      newEmail: next,
    })
    expect(error).toBeNull()
    expect(data.user!.email).toBe(email)
    expect(data.user!.new_email).toBe(next)
    expect(data.properties!.verification_type).toBe('email_change_new')
    expect(data.properties!.action_link).toMatch(/type=email_change/)

    const verified = await stack
      .client()
      .auth.verifyOtp({ email: next, token: data.properties!.email_otp, type: 'email_change' })
    expect(verified.error).toBeNull()
    expect(verified.data.user!.email).toBe(next)
  })

  it('answers email_change_current, a taken address and an unknown user as GoTrue', async () => {
    const admin = stack.admin().auth.admin
    const email = newEmail()
    const other = newEmail()
    await admin.createUser({ email, password: 'correct-horse' })
    await admin.createUser({ email: other, password: 'correct-horse' })
    // double_confirm_changes is on (the CLI default), so the current address has a link too;
    // used alone it moves nothing (auth-email-change.test.ts has the switched-off answer).
    const next = newEmail()
    const current = await admin.generateLink({
      type: 'email_change_current',
      email,
      newEmail: next,
    })
    expect(current.error).toBeNull()
    expect(current.data.user!.new_email).toBe(next)
    expect(current.data.properties!.verification_type).toBe('email_change_current')
    const verified = await stack.client().auth.verifyOtp({
      email,
      token: current.data.properties!.email_otp,
      type: 'email_change',
    })
    expect(verified.error).toBeNull()
    expect(verified.data.session).toBeNull()
    expect((await admin.getUserById(current.data.user!.id)).data.user!.email).toBe(email)
    const taken = await admin.generateLink({ type: 'email_change_new', email, newEmail: other })
    expect(taken.error).toMatchObject({ status: 422, code: 'email_exists' })
    const unknown = await admin.generateLink({
      type: 'email_change_new',
      email: newEmail(),
      newEmail: newEmail(),
    })
    expect(unknown.error).toMatchObject({
      status: 404,
      code: 'user_not_found',
      message: 'User with this email not found',
    })
  })
})
