import { createClient, type SupabaseClient } from '@supabase/supabase-js'
import { decodeJwt } from 'jose'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DEFAULT_ANON_KEY } from '../../../packages/localbase/src/index.ts'
import { adminClient, type Stack, startStack } from '../stack.ts'

// Issue #14, finding 3: PUT /auth/v1/user {"email": <a pending invitee's address>} changed
// the address at once, so a refreshed token carried the invitee's email, the invitation's
// row and token became readable, and the attacker could accept it. Now the address only
// changes once the link mailed to the new address has been used; until then the user has a
// new_email and both the account and its tokens keep the old address.

const noSession = { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false }
const stamp = Date.now()
const password = 'a long enough password'

let stack: Stack
beforeAll(async () => {
  stack = await startStack()
})
afterAll(() => stack?.stop())

type Account = { client: SupabaseClient; id: string; email: string }

/** A confirmed account, signed in through supabase-js. */
async function account(name: string): Promise<Account> {
  const email = `${name}.${stamp}@example.test`
  const created = await adminClient(stack).auth.admin.createUser({
    email,
    password,
    email_confirm: true,
  })
  expect(created.error).toBeNull()
  const client = createClient(stack.url, DEFAULT_ANON_KEY, { auth: noSession })
  const { error } = await client.auth.signInWithPassword({ email, password })
  expect(error).toBeNull()
  return { client, id: created.data.user!.id, email }
}

type Mail = { to: string; subject: string; link: string }
async function mailsTo(email: string): Promise<Mail[]> {
  const res = await fetch(
    `${stack.url}/auth/v1/mailbox/messages?email=${encodeURIComponent(email)}`,
  )
  return (await res.json()) as Mail[]
}

/** Follows a mailed link as a browser would; the fragment of the redirect it answers with. */
async function follow(link: string): Promise<URLSearchParams> {
  const res = await fetch(link, { redirect: 'manual' })
  expect(res.status).toBe(303)
  return new URLSearchParams(new URL(res.headers.get('location')!).hash.slice(1))
}

/** The email in a freshly refreshed access token: what RLS policies read. */
async function tokenEmail(who: Account): Promise<unknown> {
  const { data, error } = await who.client.auth.refreshSession()
  expect(error).toBeNull()
  return decodeJwt(data.session!.access_token).email
}

/** What the account can read of invitations and of their tokens (owners' only). */
async function invitationsVisibleTo(who: Account) {
  const invitations = await who.client.from('workspace_invitations').select('id')
  const tokens = await who.client.from('workspace_invitation_tokens').select('token')
  expect(invitations.error).toBeNull()
  expect(tokens.error).toBeNull()
  return { invitations: invitations.data, tokens: tokens.data }
}

describe("changing one's email to a pending invitee's address", () => {
  let attacker: Account
  let invitee: string
  beforeAll(async () => {
    const owner = await account('owner')
    attacker = await account('attacker')
    invitee = `invitee.${stamp}@example.test`
    const workspace = await owner.client
      .from('workspaces')
      .insert({ name: 'Board minutes' })
      .select('id')
      .single()
    expect(workspace.error).toBeNull()
    const invited = await owner.client
      .from('workspace_invitations')
      .insert({ workspace_id: workspace.data!.id, email: invitee, role: 'owner' })
    expect(invited.error).toBeNull()
  })

  it('leaves the account and its tokens on the old address, with a pending new_email', async () => {
    const { data, error } = await attacker.client.auth.updateUser({ email: invitee })
    expect(error).toBeNull()
    expect(data.user).toMatchObject({ email: attacker.email, new_email: invitee })

    const stored = await adminClient(stack).auth.admin.getUserById(attacker.id)
    expect(stored.data.user!.email).toBe(attacker.email)
    expect(await tokenEmail(attacker)).toBe(attacker.email)
    expect(await invitationsVisibleTo(attacker)).toEqual({ invitations: [], tokens: [] })
  })

  it('is not completed by the link sent to the attacker’s own, old address', async () => {
    const [own] = (await mailsTo(attacker.email)).filter(
      (m) => m.subject === 'Confirm Email Change',
    )
    expect(own).toBeDefined()
    const fragment = await follow(own!.link)
    expect(fragment.get('access_token')).toBeNull()
    expect(fragment.get('message')).toBe(
      'Confirmation link accepted. Please proceed to confirm link sent to the other email',
    )

    const stored = await adminClient(stack).auth.admin.getUserById(attacker.id)
    expect(stored.data.user!.email).toBe(attacker.email)
    expect(await tokenEmail(attacker)).toBe(attacker.email)
    expect(await invitationsVisibleTo(attacker)).toEqual({ invitations: [], tokens: [] })
  })

  it('completes only with the link mailed to the new address', async () => {
    const [mail] = await mailsTo(invitee)
    expect(mail).toMatchObject({ to: invitee, subject: 'Confirm Email Change' })
    const fragment = await follow(mail!.link)
    expect(fragment.get('type')).toBe('email_change')
    expect(decodeJwt(fragment.get('access_token')!).email).toBe(invitee)
    const stored = await adminClient(stack).auth.admin.getUserById(attacker.id)
    expect(stored.data.user!.email).toBe(invitee)
    expect(stored.data.user).not.toHaveProperty('new_email')
  })
})
