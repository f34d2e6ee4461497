import { createClient, type SupabaseClient } from '@supabase/supabase-js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DEFAULT_ANON_KEY } from '../../../packages/localbase/src/index.ts'
import { confirmByMail, mailsTo } from '../mailbox.ts'
import { clientFor, createUser, startStack, type User } from '../stack.ts'

// Issue #14, finding 2: an invitation could be taken by whoever claimed the invited address.
// Sign up as that address (nothing had to be confirmed), read the token from
// workspace_invitations, call accept_invitation: joined with the invited role. And the
// related half of finding 3: change one's own address to the invitee's, then the same.
// Each attack runs through supabase-js against the project's own config and migrations.
const stack = await startStack()
afterAll(() => stack.stop())

const stamp = Date.now()
const password = 'long enough password'
const noSession = { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false }
const newClient = () => createClient(stack.url, DEFAULT_ANON_KEY, { auth: noSession })

let owner: User
let workspaceId: string
beforeAll(async () => {
  owner = await createUser(stack, 'owner')
  const { data, error } = await clientFor(stack, owner)
    .from('workspaces')
    .insert({ name: 'Crown jewels' })
    .select('id')
    .single()
  if (error) throw error
  workspaceId = data.id
})

/** An owner's invitation to `email`; returns its id. */
async function invite(email: string): Promise<string> {
  const { data, error } = await clientFor(stack, owner)
    .from('workspace_invitations')
    .insert({ workspace_id: workspaceId, email, role: 'owner' })
    .select('id')
    .single()
  if (error) throw error
  return data.id
}

const membership = async (userId: string) =>
  (
    await stack.db.pg.query(
      'select role from public.workspace_members where workspace_id = $1 and user_id = $2',
      [workspaceId, userId],
    )
  ).rows

/**
 * Everything a signed-in attacker can try for the token: the invitations table (as
 * before the fix), the owners' token table, and the invitee's own list.
 */
async function stealTokens(client: SupabaseClient): Promise<string[]> {
  const found: string[] = []
  const rows = await client.from('workspace_invitations').select('*')
  for (const row of rows.data ?? []) if (row.token) found.push(row.token)
  const secrets = await client.from('workspace_invitation_tokens').select('token')
  for (const row of secrets.data ?? []) found.push(row.token)
  const mine = await client.rpc('my_invitations')
  for (const row of (mine.data as { token?: string }[] | null) ?? []) {
    if (row.token) found.push(row.token)
  }
  return found
}

/** Reads what tokens it can and tries each; the errors it met on the way. */
async function attack(client: SupabaseClient) {
  const tokens = await stealTokens(client)
  const errors = []
  for (const token of tokens) {
    const { error } = await client.rpc('accept_invitation', { invitation_token: token })
    if (error) errors.push(error)
  }
  return { tokens, errors }
}

describe('claiming an invited address', () => {
  it('signing up as the invitee gives no session, no token and no membership', async () => {
    const victim = `victim.${stamp}@example.test`
    await invite(victim)

    const attacker = newClient()
    const signUp = await attacker.auth.signUp({ email: victim, password })
    expect(signUp.error).toBeNull()
    const attackerId = signUp.data.user!.id
    // Whatever Auth gave, the attacker uses: the sign-up's session, or a password sign-in.
    let signedIn = signUp.data.session !== null
    if (!signedIn) {
      const signIn = await attacker.auth.signInWithPassword({ email: victim, password })
      expect(signIn.error).toMatchObject({ status: 400, code: 'email_not_confirmed' })
      signedIn = signIn.error === null
    }
    if (signedIn) await attack(attacker)

    expect(await membership(attackerId)).toEqual([])
    expect(signedIn).toBe(false)
    // The proof went to the victim's mailbox, which the attacker does not read.
    expect((await mailsTo(stack.url, victim)).map((m) => m.subject)).toEqual([
      'Confirm Your Signup',
    ])
  })

  it('an account that merely claims the address reads no token and cannot join', async () => {
    const victim = `claimed.${stamp}@example.test`
    const invitationId = await invite(victim)
    // A session for an account whose address was never confirmed, with the address in its
    // JWT: what an unconfirmed session would look like, however one came to exist.
    const claimer = await createUser(stack, 'claimer', {}, { email: victim, confirmed: false })
    const client = clientFor(stack, claimer)

    const { tokens } = await attack(client)
    expect(tokens).toEqual([])
    expect((await client.rpc('my_invitations')).data ?? []).toEqual([])
    const workspace = await client.from('workspaces').select('id').eq('id', workspaceId)
    expect(workspace.data ?? []).toEqual([])

    // Even holding the real token (a forwarded link, say), an unproven address cannot join.
    const { rows } = await stack.db.pg.query<{ token: string }>(
      'select token from public.workspace_invitation_tokens where invitation_id = $1',
      [invitationId],
    )
    const { error, status } = await client.rpc('accept_invitation', {
      invitation_token: rows[0]!.token,
    })
    expect(status).toBe(403)
    expect(error).toMatchObject({
      code: '42501',
      message: 'confirm your email address before accepting an invitation',
    })
    expect(await membership(claimer.id)).toEqual([])

    // Nor can it make a workspace of its own: no membership without a confirmed address.
    const own = await client.from('workspaces').insert({ name: 'Mine' }).select('id')
    expect(own.status).toBe(403)
    expect(own.error?.message).toBe(
      'confirm your email address before joining or creating a workspace',
    )
  })

  it("changing one's address to the invitee's reads no token and joins nothing", async () => {
    const victim = `moved.${stamp}@example.test`
    const invitationId = await invite(victim)
    const own = `mallory.${stamp}@example.test`
    const attacker = newClient()
    const signUp = await attacker.auth.signUp({ email: own, password })
    expect(signUp.error).toBeNull()
    // The attacker's own address is theirs to confirm.
    if (!signUp.data.session) await confirmByMail(attacker, stack.url, own)
    const attackerId = signUp.data.user!.id

    expect((await attacker.auth.updateUser({ email: victim })).error).toBeNull()
    expect((await attacker.auth.refreshSession()).error).toBeNull()
    const { tokens } = await attack(attacker)
    expect(tokens).toEqual([])
    expect(await membership(attackerId)).toEqual([])

    // Handed the real token, the account is still not the invited, confirmed address.
    const { rows } = await stack.db.pg.query<{ token: string }>(
      'select token from public.workspace_invitation_tokens where invitation_id = $1',
      [invitationId],
    )
    const { error } = await attacker.rpc('accept_invitation', { invitation_token: rows[0]!.token })
    expect(error).toMatchObject({
      code: 'P0001',
      message: 'invitation was sent to another email address',
    })
    expect(await membership(attackerId)).toEqual([])
  })
})
