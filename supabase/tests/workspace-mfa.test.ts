import { createClient, type SupabaseClient } from '@supabase/supabase-js'
import { decodeJwt } from 'jose'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { totpCode } from '../../packages/localbase/src/auth/totp.ts'
import { DEFAULT_ANON_KEY } from '../../packages/localbase/src/index.ts'
import { adminClient, startStack, type Stack } from './stack.ts'

// A workspace that requires two-factor sign-in, enforced by RLS on the token's `aal`: real
// accounts sign in through localbase Auth, enrol TOTP through supabase-js and read through
// PostgREST, so the claim comes from Auth itself.

let stack: Stack
beforeAll(async () => {
  stack = await startStack()
})
afterAll(() => stack?.stop())

const password = 'correct-horse-battery'
const noSession = { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false }

async function account(name: string): Promise<{ id: string; email: string }> {
  const email = `${name}.${Date.now()}@example.test`
  const { data, error } = await adminClient(stack).auth.admin.createUser({
    email,
    password,
    email_confirm: true,
    user_metadata: { display_name: name },
  })
  expect(error).toBeNull()
  return { id: data.user!.id, email }
}

async function signIn(email: string): Promise<SupabaseClient> {
  const client = createClient(stack.url, DEFAULT_ANON_KEY, { auth: noSession })
  const { error } = await client.auth.signInWithPassword({ email, password })
  expect(error).toBeNull()
  return client
}

/** Enrols and verifies TOTP; the client's session is then AAL2. Returns the secret. */
async function enrol(client: SupabaseClient): Promise<{ factorId: string; secret: string }> {
  const { data, error } = await client.auth.mfa.enroll({ factorType: 'totp' })
  expect(error).toBeNull()
  const verified = await client.auth.mfa.challengeAndVerify({
    factorId: data!.id,
    code: totpCode(data!.totp.secret),
  })
  expect(verified.error).toBeNull()
  return { factorId: data!.id, secret: data!.totp.secret }
}

const aal = async (client: SupabaseClient) =>
  decodeJwt((await client.auth.getSession()).data.session!.access_token).aal

describe('a workspace that requires two-factor sign-in', () => {
  let owner: { id: string; email: string }
  let member: { id: string; email: string }
  let workspaceId: string
  let ownerSecret: string

  beforeAll(async () => {
    owner = await account('owner')
    member = await account('member')
    const admin = adminClient(stack)
    const { data } = await admin
      .from('workspaces')
      .insert({ name: 'Contracts', created_by: owner.id })
      .select('id')
      .single()
    workspaceId = data!.id
    await admin.from('workspace_members').insert({ workspace_id: workspaceId, user_id: member.id })
    await admin
      .from('documents')
      .insert({ workspace_id: workspaceId, title: 'Lease', created_by: owner.id })
    await admin.from('conversations').insert({
      workspace_id: workspaceId,
      title: 'Terms',
      visibility: 'shared',
      created_by: owner.id,
    })
  })

  it('can be required only by an owner whose own session verified a second factor', async () => {
    const client = await signIn(owner.email)
    const refused = await client
      .from('workspaces')
      .update({ require_mfa: true })
      .eq('id', workspaceId)
    expect(refused.error).toMatchObject({ code: 'P0001' })
    expect(refused.error!.message).toMatch(/two-factor/)

    ownerSecret = (await enrol(client)).secret
    expect(await aal(client)).toBe('aal2')
    const { data, error } = await client
      .from('workspaces')
      .update({ require_mfa: true })
      .eq('id', workspaceId)
      .select('require_mfa')
    expect(error).toBeNull()
    expect(data).toEqual([{ require_mfa: true }])

    // A viewer may not change it, even at AAL2.
    const viewer = await signIn(member.email)
    await viewer.from('workspaces').update({ require_mfa: false }).eq('id', workspaceId)
    const { rows } = await stack.db.pg.query<{ require_mfa: boolean }>(
      'select require_mfa from public.workspaces where id = $1',
      [workspaceId],
    )
    expect(rows[0]!.require_mfa).toBe(true)
  })

  it('shows an AAL1 member nothing of it, only that it needs a second factor', async () => {
    const client = await signIn(member.email)
    expect(await aal(client)).toBe('aal1')
    for (const table of ['workspaces', 'workspace_members', 'documents', 'conversations']) {
      const { data, error } = await client.from(table).select('*')
      expect(error).toBeNull()
      expect({ table, rows: data }).toEqual({ table, rows: [] })
    }
    const owners = await client.from('profiles').select('id').eq('id', owner.id)
    expect(owners.data).toEqual([])
    const needed = await client.rpc('workspaces_requiring_mfa')
    expect(needed.error).toBeNull()
    expect(needed.data).toEqual([{ id: workspaceId, name: 'Contracts' }])
    // Nor can it write there.
    const started = await client
      .from('conversations')
      .insert({ workspace_id: workspaceId, title: 'Sneaky' })
    expect(started.error).toMatchObject({ code: '42501' })
  })

  it('opens it once the member enrols and verifies a factor', async () => {
    const client = await signIn(member.email)
    await enrol(client)
    const workspaces = await client.from('workspaces').select('id, name, require_mfa')
    expect(workspaces.data).toEqual([{ id: workspaceId, name: 'Contracts', require_mfa: true }])
    const documents = await client.from('documents').select('title')
    expect(documents.data).toEqual([{ title: 'Lease' }])
    expect((await client.rpc('workspaces_requiring_mfa')).data).toEqual([])
  })

  it('hides it again from the owner’s next password-only session until the code is given', async () => {
    const client = await signIn(owner.email)
    expect((await client.from('documents').select('title')).data).toEqual([])
    const { data } = await client.auth.mfa.getAuthenticatorAssuranceLevel()
    expect(data).toMatchObject({ currentLevel: 'aal1', nextLevel: 'aal2' })
    const factorId = (await client.auth.mfa.listFactors()).data!.totp[0]!.id
    // One step ahead: the current step's code was spent when the factor was enrolled.
    const code = totpCode(ownerSecret, Date.now() + 30_000)
    expect((await client.auth.mfa.challengeAndVerify({ factorId, code })).error).toBeNull()
    expect((await client.from('documents').select('title')).data).toEqual([{ title: 'Lease' }])
  })

  it('leaves workspaces without the requirement open to AAL1 sessions', async () => {
    const client = await signIn(member.email)
    const { data } = await client.from('workspaces').insert({ name: 'Open' }).select('name')
    expect(data).toEqual([{ name: 'Open' }])
    const listed = await client.from('workspaces').select('name').order('name')
    expect(listed.data).toEqual([{ name: 'Open' }])
  })
})
