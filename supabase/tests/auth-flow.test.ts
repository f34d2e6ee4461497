import { createClient, type SupabaseClient } from '@supabase/supabase-js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DEFAULT_ANON_KEY } from '../../packages/localbase/src/index.ts'
import { signUpByMail } from './mailbox.ts'
import { serviceAvailable, startStack } from './stack.ts'

// The whole invitation flow with real accounts: sign-up and confirmation by mail through
// localbase's Auth, the access tokens it issues, and every query through supabase-js.
const stack = await startStack()
const ready =
  (await serviceAvailable(stack, '/auth/v1/settings')) &&
  (await serviceAvailable(stack, '/rest/v1/workspaces?select=id&limit=0'))
afterAll(() => stack.stop())

async function signUp(email: string, displayName: string): Promise<SupabaseClient> {
  const { client } = await signUpByMail(stack.url, email, { data: { display_name: displayName } })
  return client
}

describe.skipIf(!ready)('invitation flow with real accounts', () => {
  const stamp = Date.now()
  let owner: SupabaseClient
  let invitee: SupabaseClient
  let workspaceId: string
  let token: string
  beforeAll(async () => {
    owner = await signUp(`olga.${stamp}@example.test`, 'Olga')
    invitee = await signUp(`ivan.${stamp}@example.test`, 'Ivan')
  })

  it('creates a workspace owned by its creator', async () => {
    const { data, error } = await owner
      .from('workspaces')
      .insert({ name: 'Field notes' })
      .select()
      .single()
    expect(error).toBeNull()
    workspaceId = data.id
    const members = await owner
      .from('workspace_members')
      .select('role')
      .eq('workspace_id', workspaceId)
    expect(members.data).toEqual([{ role: 'owner' }])
  })

  it('lets the owner invite by email and copy the link, and the invitee find it', async () => {
    const { data, error } = await owner
      .from('workspace_invitations')
      .insert({ workspace_id: workspaceId, email: `Ivan.${stamp}@Example.test`, role: 'editor' })
      .select('id, email')
      .single()
    expect(error).toBeNull()
    expect(data!.email).toBe(`ivan.${stamp}@example.test`)
    // The link's token, which owners read from its own table.
    const link = await owner
      .from('workspace_invitation_tokens')
      .select('token')
      .eq('invitation_id', data!.id)
      .single()
    expect(link.error).toBeNull()
    token = link.data!.token
    expect(token).toMatch(/^[0-9a-f]{64}$/)

    const pending = await invitee.rpc('my_invitations')
    expect(pending.data).toEqual([
      expect.objectContaining({ workspace_name: 'Field notes', role: 'editor' }),
    ])
    expect(JSON.stringify(pending.data)).not.toContain(token)
    expect((await invitee.from('workspace_invitation_tokens').select('token')).data).toEqual([])
    const preview = await invitee.rpc('get_invitation', { invitation_token: token })
    expect(preview.data).toMatchObject([{ workspace_name: 'Field notes', invited_by_name: 'Olga' }])
  })

  it('refuses the token to someone else with a 400 and a clear message', async () => {
    const stranger = await signUp(`sam.${stamp}@example.test`, 'Sam')
    const { error, status } = await stranger.rpc('accept_invitation', { invitation_token: token })
    expect(status).toBe(400)
    expect(error).toMatchObject({
      code: 'P0001',
      message: 'invitation was sent to another email address',
    })
  })

  it('accepts for the invitee, who then appears in the member list', async () => {
    const { data, error } = await invitee.rpc('accept_invitation', { invitation_token: token })
    expect(error).toBeNull()
    expect(data).toBe(workspaceId)
    const members = await owner
      .from('workspace_members')
      .select('role, profile:profiles(display_name, email)')
      .eq('workspace_id', workspaceId)
      .order('role')
    expect(members.data).toEqual([
      { role: 'editor', profile: { display_name: 'Ivan', email: `ivan.${stamp}@example.test` } },
      { role: 'owner', profile: { display_name: 'Olga', email: `olga.${stamp}@example.test` } },
    ])
  })

  it('refuses to let the last owner leave, with a 400', async () => {
    const { data: user } = await owner.auth.getUser()
    const { error, status } = await owner
      .from('workspace_members')
      .delete()
      .eq('workspace_id', workspaceId)
      .eq('user_id', user.user!.id)
    expect(status).toBe(400)
    expect(error?.message).toBe('a workspace must keep at least one owner')
  })
})

describe.skipIf(!ready)('the seeded demo account', () => {
  it('signs in with its documented password and owns the demo workspace', async () => {
    const client = createClient(stack.url, DEFAULT_ANON_KEY, {
      auth: { persistSession: false, autoRefreshToken: false },
    })
    const { error } = await client.auth.signInWithPassword({
      email: 'demo@sourcebook.local',
      password: 'sourcebook-demo',
    })
    expect(error).toBeNull()
    const { data } = await client.from('workspace_members').select('role, workspaces(name)')
    expect(data).toEqual([{ role: 'owner', workspaces: { name: 'Demo workspace' } }])
  })
})
