import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { adminClient, clientFor, startStack, type Stack } from './stack.ts'
import { createPeople, createWorld, type People, type World } from './world.ts'

let stack: Stack
let people: People
let world: World

beforeAll(async () => {
  stack = await startStack()
  people = await createPeople(stack)
  world = await createWorld(stack, people)
}, 60_000)

afterAll(async () => {
  await stack?.stop()
})

type Created = { id: string; token: string }

async function create(
  who: keyof People,
  scope: 'read' | 'write',
  expiresInDays: number | null = 30,
  workspaceId = world.workspaceId,
) {
  return clientFor(stack, people[who]).rpc('create_access_token', {
    workspace_id: workspaceId,
    name: `${who} ${scope}`,
    scope,
    expires_in_days: expiresInDays,
  })
}

/** The token as the functions see it, through the service-role-only RPC. */
async function authenticate(token: string, maxPerMinute = 100) {
  const { data, error } = await adminClient(stack).rpc('authenticate_access_token', {
    token,
    max_per_minute: maxPerMinute,
  })
  if (error) throw error
  return data as { status: string; scope?: string; user_id?: string; retry_after?: number }
}

describe('create_access_token', () => {
  it('returns the secret once and stores only its hash', async () => {
    const { data, error } = await create('editor', 'write', 90)
    expect(error).toBeNull()
    const created = data as Created
    expect(created.token).toMatch(/^sbk_[A-Za-z0-9_-]{43}$/)

    const listed = await clientFor(stack, people.editor)
      .from('access_tokens')
      .select('id, name, scope, prefix, expires_at, last_used_at, revoked_at')
      .eq('id', created.id)
      .single()
    expect(listed.error).toBeNull()
    expect(listed.data).toMatchObject({ name: 'editor write', scope: 'write', revoked_at: null })
    expect(listed.data!.prefix).toBe(created.token.slice(0, 10))
    expect(JSON.stringify(listed.data)).not.toContain(created.token.slice(10))
    const days = (Date.parse(listed.data!.expires_at!) - Date.now()) / 86_400_000
    expect(days).toBeGreaterThan(89.9)
    expect(days).toBeLessThan(90.1)

    const { rows } = await stack.db.pg.query<{ token_hash: string }>(
      'select token_hash from public.access_tokens where id = $1',
      [created.id],
    )
    expect(rows[0]!.token_hash).toMatch(/^[0-9a-f]{64}$/)
    expect(rows[0]!.token_hash).not.toContain(created.token)
  })

  it('refuses the hash column to its owner', async () => {
    for (const columns of ['token_hash', '*']) {
      const { error } = await clientFor(stack, people.editor).from('access_tokens').select(columns)
      expect(error?.code).toBe('42501')
    }
  })

  it('never gives a scope wider than the role', async () => {
    const viewerWrite = await create('viewer', 'write')
    expect(viewerWrite.error?.code).toBe('42501')
    expect(viewerWrite.error?.message).toMatch(/viewer/i)
    const viewerRead = await create('viewer', 'read', null)
    expect(viewerRead.error).toBeNull()
  })

  it('refuses outsiders, the anonymous and bad input with clear errors', async () => {
    const outsider = await create('outsider', 'read')
    expect(outsider.error?.code).toBe('42501')
    expect(outsider.error?.message).toMatch(/members/)

    const anonymous = await clientFor(stack).rpc('create_access_token', {
      workspace_id: world.workspaceId,
      name: 'x',
      scope: 'read',
      expires_in_days: null,
    })
    expect(anonymous.error).not.toBeNull()

    const badScope = await clientFor(stack, people.owner).rpc('create_access_token', {
      workspace_id: world.workspaceId,
      name: 'x',
      scope: 'admin',
      expires_in_days: null,
    })
    expect(badScope.error?.code).toBe('22023')
    const noName = await clientFor(stack, people.owner).rpc('create_access_token', {
      workspace_id: world.workspaceId,
      name: '   ',
      scope: 'read',
      expires_in_days: null,
    })
    expect(noName.error?.message).toMatch(/name/)
    const badExpiry = await create('owner', 'read', 0)
    expect(badExpiry.error?.code).toBe('22023')
  })

  it('lists only the caller’s own tokens', async () => {
    await create('owner', 'write')
    const mine = await clientFor(stack, people.viewer).from('access_tokens').select('user_id')
    expect(mine.error).toBeNull()
    expect(mine.data!.length).toBeGreaterThan(0)
    expect(new Set(mine.data!.map((row) => row.user_id))).toEqual(new Set([people.viewer.id]))
    const outsider = await clientFor(stack, people.outsider).from('access_tokens').select('id')
    expect(outsider.data).toEqual([])
  })

  it('cannot be written to directly', async () => {
    const { error } = await clientFor(stack, people.owner)
      .from('access_tokens')
      .update({ scope: 'write' })
      .eq('user_id', people.owner.id)
    expect(error?.code).toBe('42501')
  })
})

describe('authenticate_access_token', () => {
  it('maps a token to its person, workspace and scope, and records the use', async () => {
    const created = (await create('editor', 'write')).data as Created
    const answer = await authenticate(created.token)
    expect(answer).toMatchObject({
      status: 'ok',
      user_id: people.editor.id,
      workspace_id: world.workspaceId,
      scope: 'write',
      email: people.editor.email,
    })
    const listed = await clientFor(stack, people.editor)
      .from('access_tokens')
      .select('last_used_at')
      .eq('id', created.id)
      .single()
    expect(listed.data!.last_used_at).not.toBeNull()
  })

  it('is for the service role only', async () => {
    const created = (await create('editor', 'read')).data as Created
    const { error } = await clientFor(stack, people.editor).rpc('authenticate_access_token', {
      token: created.token,
      max_per_minute: 10,
    })
    expect(error?.code).toBe('42501')
  })

  it('answers invalid for unknown and revoked tokens, expired for expired ones', async () => {
    expect((await authenticate('sbk_not-a-real-token')).status).toBe('invalid')
    const created = (await create('editor', 'read')).data as Created
    const revoked = await clientFor(stack, people.editor).rpc('revoke_access_token', {
      id: created.id,
    })
    expect(revoked.error).toBeNull()
    expect((await authenticate(created.token)).status).toBe('invalid')

    const old = (await create('editor', 'read', 1)).data as Created
    await stack.db.pg.query(
      `update public.access_tokens set expires_at = now() - interval '1 second' where id = $1`,
      [old.id],
    )
    expect((await authenticate(old.token)).status).toBe('expired')
  })

  it('revokes only the caller’s own tokens', async () => {
    const created = (await create('editor', 'read')).data as Created
    const { error } = await clientFor(stack, people.owner).rpc('revoke_access_token', {
      id: created.id,
    })
    expect(error).toMatchObject({ code: '42501', message: 'No such token among yours' })
    expect((await authenticate(created.token)).status).toBe('ok')
  })

  it('limits uses per token and minute', async () => {
    const created = (await create('viewer', 'read')).data as Created
    for (let i = 0; i < 3; i++) expect((await authenticate(created.token, 3)).status).toBe('ok')
    const limited = await authenticate(created.token, 3)
    expect(limited.status).toBe('rate_limited')
    expect(limited.retry_after).toBeGreaterThan(0)
    expect(limited.retry_after).toBeLessThanOrEqual(60)
    // Another token of the same person has its own budget.
    const other = (await create('viewer', 'read')).data as Created
    expect((await authenticate(other.token, 3)).status).toBe('ok')
  })
})

describe('membership changes', () => {
  it('narrows write tokens to read when the member becomes a viewer', async () => {
    const fresh = await createWorld(stack, people)
    const created = (await create('editor', 'write', 30, fresh.workspaceId)).data as Created
    const lowered = await clientFor(stack, people.owner)
      .from('workspace_members')
      .update({ role: 'viewer' })
      .eq('workspace_id', fresh.workspaceId)
      .eq('user_id', people.editor.id)
    expect(lowered.error).toBeNull()
    expect((await authenticate(created.token)).scope).toBe('read')
    const listed = await clientFor(stack, people.editor)
      .from('access_tokens')
      .select('scope')
      .eq('id', created.id)
      .single()
    expect(listed.data!.scope).toBe('read')
  })

  it('revokes the tokens of a removed member at once', async () => {
    const fresh = await createWorld(stack, people)
    const created = (await create('viewer', 'read', null, fresh.workspaceId)).data as Created
    expect((await authenticate(created.token)).status).toBe('ok')
    const removed = await clientFor(stack, people.owner)
      .from('workspace_members')
      .delete()
      .eq('workspace_id', fresh.workspaceId)
      .eq('user_id', people.viewer.id)
    expect(removed.error).toBeNull()
    expect((await authenticate(created.token)).status).toBe('invalid')
    const listed = await clientFor(stack, people.viewer)
      .from('access_tokens')
      .select('revoked_at')
      .eq('id', created.id)
      .single()
    expect(listed.data!.revoked_at).not.toBeNull()
  })
})
