import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestStack, type TestStack } from './helpers.ts'

describe('Database.readAsUser (one round trip)', () => {
  let stack: TestStack
  const alice = '00000000-0000-0000-0000-00000000000a'
  const asAlice = { role: 'authenticated', claims: { sub: alice, role: 'authenticated' } }
  beforeAll(async () => {
    stack = await startTestStack()
    await stack.db.pg.exec(`
      insert into auth.users (id, email) values ('${alice}', 'alice@example.com');
      insert into public.notes (owner_id, title) values ('${alice}', 'mine');
      insert into auth.users (id, email) values ('00000000-0000-0000-0000-00000000000b', 'b@example.com');
      insert into public.notes (owner_id, title) values ('00000000-0000-0000-0000-00000000000b', 'theirs');`)
  })
  afterAll(() => stack?.stop())

  it('applies RLS under the caller, parses types, and leaves no context behind', async () => {
    const rows = await stack.db.readAsUser(
      asAlice,
      'select title, id, id > 0 as positive from public.notes order by id',
      [],
    )
    expect(rows).toEqual([{ title: 'mine', id: 1, positive: true }])
    const after = await stack.db.pg.query(
      `select current_user, current_setting('request.jwt.claims', true) as claims`,
    )
    expect(after.rows).toEqual([{ current_user: 'postgres', claims: '' }])
  })

  it('gives each of many reads in flight at once its own caller’s claims and rows', async () => {
    const bob = '00000000-0000-0000-0000-00000000000b'
    const callers = [
      { ctx: asAlice, sub: alice, titles: ['mine'] },
      {
        ctx: { role: 'authenticated', claims: { sub: bob, role: 'authenticated' } },
        sub: bob,
        titles: ['theirs'],
      },
      { ctx: { role: 'anon', claims: { role: 'anon' } }, sub: null, titles: [] },
    ]
    const sql = `select auth.uid() as sub, current_user as role,
      coalesce((select string_agg(title, ',' order by id) from public.notes), '') as titles`
    const reads = Array.from({ length: 30 }, (_, i) => callers[i % callers.length]!)
    const rows = await Promise.all(reads.map((c) => stack.db.readAsUser(c.ctx, sql, [])))
    rows.forEach(([row], i) => {
      const { ctx, sub, titles } = reads[i]!
      expect(row).toEqual({ sub, role: ctx.role, titles: titles.join(',') })
    })
  })

  it('runs read-only and reports Postgres errors with their SQLSTATE', async () => {
    await expect(
      stack.db.readAsUser(asAlice, `insert into public.notes (title) values ($1)`, ['x']),
    ).rejects.toMatchObject({ code: '25006' })
    await expect(stack.db.readAsUser(asAlice, 'select * from nowhere', [])).rejects.toMatchObject({
      code: '42P01',
    })
  })

  it('never runs inside another caller’s open transaction', async () => {
    let release!: () => void
    const held = new Promise<void>((resolve) => (release = resolve))
    const writer = stack.db.asService(async (tx) => {
      await tx.query(`insert into public.notes (owner_id, title) values ($1, 'uncommitted')`, [
        alice,
      ])
      await held
      throw new Error('roll back')
    })
    const read = stack.db.readAsUser(asAlice, 'select title from public.notes order by id', [])
    setTimeout(release, 50)
    await expect(writer).rejects.toThrow('roll back')
    expect(await read).toEqual([{ title: 'mine' }])
  })

  it('keeps prepared statements right across roles, a DISCARD ALL and a changed table', async () => {
    const sql = 'select * from public.notes order by id'
    const anon = { role: 'anon', claims: { role: 'anon' } }
    expect(await stack.db.readAsUser(anon, sql, [])).toEqual([])
    expect((await stack.db.readAsUser(asAlice, sql, [])).map((r) => r.title)).toEqual(['mine'])
    expect(await stack.db.readAsUser(anon, sql, [])).toEqual([])

    await stack.db.pg.exec('discard all')
    expect((await stack.db.readAsUser(asAlice, sql, [])).map((r) => r.title)).toEqual(['mine'])

    await stack.db.pg.exec(`alter table public.notes add column mood text default 'calm'`)
    const [row] = await stack.db.readAsUser(asAlice, sql, [])
    expect(row).toMatchObject({ title: 'mine', mood: 'calm' })
  })
})
