import { afterAll, describe, expect, it } from 'vitest'
import { createUser, type User } from './stack.ts'
import { openSuite } from './suite.ts'

const { stack, drivers } = await openSuite()
afterAll(() => stack.stop())

const membersOf = async (workspaceId: string) =>
  (
    await stack.db.pg.query<{ user_id: string; role: string }>(
      'select user_id, role from public.workspace_members where workspace_id = $1 order by role',
      [workspaceId],
    )
  ).rows

describe.each(drivers)('workspaces through $name', (driver) => {
  const create = async (user: User, name: string) =>
    driver.call(stack, user, {
      table: 'workspaces',
      op: 'insert',
      values: { name },
      returning: true,
    })

  it('makes the creator its owner in the same statement, so the new row comes back', async () => {
    const alice = await createUser(stack, 'alice')
    const { rows, error } = await create(alice, '  Research notes ')
    expect(error).toBeNull()
    expect(rows).toHaveLength(1)
    const workspace = rows[0]!
    expect(workspace).toMatchObject({ name: 'Research notes', created_by: alice.id })
    expect(await membersOf(workspace.id as string)).toEqual([{ user_id: alice.id, role: 'owner' }])
  })

  it('refuses empty and over-long names, and writes nothing', async () => {
    const bob = await createUser(stack, 'bob')
    for (const name of ['   ', 'x'.repeat(101)]) {
      const { error } = await create(bob, name)
      expect(error?.code).toBe('23514')
    }
    const { rows } = await stack.db.pg.query(
      'select 1 from public.workspace_members where user_id = $1',
      [bob.id],
    )
    expect(rows).toEqual([])
  })

  it('refuses a workspace created in someone else’s name', async () => {
    const [carol, dave] = [await createUser(stack, 'carol'), await createUser(stack, 'dave')]
    const { error } = await driver.call(stack, carol, {
      table: 'workspaces',
      op: 'insert',
      values: { name: 'Not mine', created_by: dave.id },
    })
    expect(error?.code).toBe('42501')
    expect(
      await stack.db.pg.query('select 1 from public.workspace_members where user_id = $1', [
        dave.id,
      ]),
    ).toMatchObject({ rows: [] })
  })

  it('keeps a last owner: no demotion, no removal, no leaving; the workspace can still go', async () => {
    const [owner, editor] = [await createUser(stack, 'owner'), await createUser(stack, 'editor')]
    const id = (await create(owner, 'Solo')).rows[0]!.id as string
    await stack.db.pg.query(
      `insert into public.workspace_members (workspace_id, user_id, role) values ($1, $2, 'editor')`,
      [id, editor.id],
    )
    const own = { workspace_id: id, user_id: owner.id }
    const demote = await driver.call(stack, owner, {
      table: 'workspace_members',
      op: 'update',
      match: own,
      values: { role: 'editor' },
    })
    expect(demote.error).toMatchObject({
      code: 'P0001',
      message: 'a workspace must keep at least one owner',
    })
    const leave = await driver.call(stack, owner, {
      table: 'workspace_members',
      op: 'delete',
      match: own,
    })
    expect(leave.error).toMatchObject({
      code: 'P0001',
      message: 'a workspace must keep at least one owner',
    })
    expect(await membersOf(id)).toEqual([
      { user_id: editor.id, role: 'editor' },
      { user_id: owner.id, role: 'owner' },
    ])

    const gone = await driver.call(stack, owner, {
      table: 'workspaces',
      op: 'delete',
      match: { id },
    })
    expect(gone.error).toBeNull()
    expect(await membersOf(id)).toEqual([])
  })

  it('lets an owner hand over: promote another owner, then step down or leave', async () => {
    const [first, second] = [await createUser(stack, 'first'), await createUser(stack, 'second')]
    const id = (await create(first, 'Handover')).rows[0]!.id as string
    await stack.db.pg.query(
      `insert into public.workspace_members (workspace_id, user_id, role) values ($1, $2, 'viewer')`,
      [id, second.id],
    )
    const promote = await driver.call(stack, first, {
      table: 'workspace_members',
      op: 'update',
      match: { workspace_id: id, user_id: second.id },
      values: { role: 'owner' },
    })
    expect(promote.error).toBeNull()
    const leave = await driver.call(stack, first, {
      table: 'workspace_members',
      op: 'delete',
      match: { workspace_id: id, user_id: first.id },
    })
    expect(leave.error).toBeNull()
    expect(await membersOf(id)).toEqual([{ user_id: second.id, role: 'owner' }])

    // The new sole owner is now the one who cannot step down.
    const demote = await driver.call(stack, second, {
      table: 'workspace_members',
      op: 'update',
      match: { workspace_id: id, user_id: second.id },
      values: { role: 'viewer' },
    })
    expect(demote.error?.code).toBe('P0001')
  })

  it('lets an owner rename, and stamps updated_at', async () => {
    const erin = await createUser(stack, 'erin')
    const created = (await create(erin, 'Draft')).rows[0]!
    const { rows, error } = await driver.call(stack, erin, {
      table: 'workspaces',
      op: 'update',
      match: { id: created.id as string },
      values: { name: 'Final', chat_model: 'openai:gpt-4o-mini' },
      returning: true,
    })
    expect(error).toBeNull()
    expect(rows[0]).toMatchObject({ name: 'Final', chat_model: 'openai:gpt-4o-mini' })
    expect(rows[0]!.updated_at).not.toBe(created.updated_at)
    expect(rows[0]!.created_at).toBe(created.created_at)
  })
})

describe('workspaces, database rules', () => {
  it('hands a deleted sole owner’s workspaces to the senior member, or deletes them', async () => {
    const [frank, viewer, editor] = [
      await createUser(stack, 'frank'),
      await createUser(stack, 'viewer'),
      await createUser(stack, 'editor'),
    ]
    const { rows } = await stack.db.pg.query<{ id: string }>(
      `insert into public.workspaces (name, created_by) values ('Shared', $1), ('Alone', $1)
       returning id`,
      [frank.id],
    )
    const [shared, alone] = rows.map((row) => row.id)
    await stack.db.pg.query(
      `insert into public.workspace_members (workspace_id, user_id, role)
       values ($1, $2, 'viewer'), ($1, $3, 'editor')`,
      [shared, viewer.id, editor.id],
    )
    await stack.db.pg.query('delete from auth.users where id = $1', [frank.id])
    expect(await membersOf(shared!)).toEqual([
      { user_id: editor.id, role: 'owner' },
      { user_id: viewer.id, role: 'viewer' },
    ])
    const left = await stack.db.pg.query('select 1 from public.workspaces where id = $1', [alone])
    expect(left.rows).toEqual([])
  })

  it('publishes membership changes to realtime', async () => {
    const { rows } = await stack.db.pg.query(
      `select tablename from pg_publication_tables where pubname = 'supabase_realtime' and schemaname = 'public'`,
    )
    expect(rows).toContainEqual({ tablename: 'workspace_members' })
  })
})
