import { afterAll, describe, expect, it } from 'vitest'
import { contextFor, createUser } from './stack.ts'
import { openSuite } from './suite.ts'

// The helpers that every later policy calls, as those policies call them: in the
// caller's request context.
const { stack } = await openSuite()
afterAll(() => stack.stop())

describe('role helpers', async () => {
  const [user, other] = [await createUser(stack, 'helper'), await createUser(stack, 'other')]
  const ids: Record<string, string> = {}
  for (const role of ['owner', 'editor', 'viewer', 'none']) {
    const { rows } = await stack.db.pg.query<{ id: string }>(
      `insert into public.workspaces (name, created_by) values ($1, $2) returning id`,
      [role, other.id],
    )
    ids[role] = rows[0]!.id
    if (role !== 'none')
      await stack.db.pg.query(
        'insert into public.workspace_members (workspace_id, user_id, role) values ($1, $2, $3)',
        [ids[role], user.id, role],
      )
  }
  const asUser = <T>(sql: string, params: unknown[] = []) =>
    stack.db.asUser(contextFor(user), async (tx) => (await tx.query<T>(sql, params)).rows)

  it('has_role ranks owner ≥ editor ≥ viewer, and grants nothing for an unknown role', async () => {
    const rows = await asUser<{ role: string; min: string; ok: boolean }>(
      `select w.name as role, r.min, public.has_role(w.id, r.min) as ok
       from public.workspaces w cross join unnest(array['viewer', 'editor', 'owner', 'admin']) r(min)
       where w.id = any($1::uuid[])`,
      [Object.values(ids)],
    )
    const granted = rows.filter((r) => r.ok).map((r) => `${r.role}≥${r.min}`)
    expect(granted.sort()).toEqual(
      [
        'editor≥editor',
        'editor≥viewer',
        'owner≥editor',
        'owner≥owner',
        'owner≥viewer',
        'viewer≥viewer',
      ].sort(),
    )
  })

  it('is_member is true for any role and false elsewhere', async () => {
    const rows = await asUser<{ name: string }>(
      `select name from public.workspaces where id = any($1::uuid[]) and public.is_member(id)
       order by name`,
      [Object.values(ids)],
    )
    expect(rows.map((r) => r.name)).toEqual(['editor', 'owner', 'viewer'])
  })

  it('my_workspace_ids lists the same workspaces as has_role, per minimum role', async () => {
    for (const [min, expected] of [
      ['viewer', ['editor', 'owner', 'viewer']],
      ['editor', ['editor', 'owner']],
      ['owner', ['owner']],
    ] as const) {
      const rows = await asUser<{ id: string }>(`select public.my_workspace_ids($1) as id`, [min])
      const names = Object.keys(ids).filter((name) => rows.some((r) => r.id === ids[name]))
      expect(names.sort()).toEqual([...expected])
    }
    expect(await asUser(`select public.my_workspace_ids() as id`)).toHaveLength(3)
  })

  it('answers nothing to anonymous callers', async () => {
    const rows = await stack.db.asUser(
      contextFor(),
      async (tx) =>
        (
          await tx.query<{ ok: boolean; n: number }>(
            `select public.has_role($1, 'viewer') as ok,
                  (select count(*)::int from public.my_workspace_ids()) as n`,
            [ids.owner],
          )
        ).rows,
    )
    expect(rows).toEqual([{ ok: false, n: 0 }])
  })
})
