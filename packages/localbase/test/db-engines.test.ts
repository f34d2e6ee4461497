import { afterAll, describe, expect, it } from 'vitest'
import { startTestStack, type TestStack } from './helpers.ts'
import { testDatabaseUrl } from './scratch-database.ts'

// Services were written against PGlite's values; on a Postgres server node-postgres must hand
// back the same ones, or a service would behave differently by engine.
const engines: [string, string | null][] = [['PGlite', null]]
if (testDatabaseUrl) engines.push(['Postgres', testDatabaseUrl])

describe.each(engines)('values read back on %s', (_, databaseServer) => {
  let stack: TestStack
  afterAll(() => stack?.stop())

  it('parse as PGlite parses them, in a transaction, in a read as a user and in exec', async () => {
    stack = await startTestStack('basic', { databaseServer })
    const sql = `select 42::int8 as big, 1.5::float8 as float, true as yes, null::text as nothing,
      '2024-02-03'::date as day, '2024-02-03 04:05:06+00'::timestamptz as at,
      '\\x0102ff'::bytea as bytes, '{"a":[1,2]}'::jsonb as doc, array[1,2]::int8[] as bigs,
      array['x', null]::text[] as texts, '00000000-0000-0000-0000-00000000000a'::uuid as id,
      12.50::numeric as amount`
    const expected = {
      big: 42,
      float: 1.5,
      yes: true,
      nothing: null,
      day: new Date('2024-02-03T00:00:00.000Z'),
      at: new Date('2024-02-03T04:05:06.000Z'),
      bytes: new Uint8Array([1, 2, 255]),
      doc: { a: [1, 2] },
      bigs: [1, 2],
      texts: ['x', null],
      id: '00000000-0000-0000-0000-00000000000a',
      amount: '12.50',
    }
    const normalise = (row: Record<string, unknown>) => ({
      ...row,
      bytes: new Uint8Array(row.bytes as Uint8Array),
    })
    const { rows } = await stack.db.asService((tx) => tx.query(sql))
    expect(normalise(rows[0]!)).toEqual(expected)
    const [result] = await stack.db.pg.exec(sql)
    expect(normalise(result!.rows[0]!)).toEqual(expected)
    // The one-round-trip read keeps int, float and bool typed and the rest as text, by design.
    const [read] = await stack.db.readAsUser(
      { role: 'anon', claims: { role: 'anon' } },
      'select 42::int8 as big, true as yes, 12.50::numeric as amount',
      [],
    )
    expect(read).toEqual({ big: 42, yes: true, amount: '12.50' })
  })

  it('writes as a user in one transaction: committed with its statement, or nothing at all', async () => {
    await stack.db.pg.exec(`create table public.ledger (id int primary key, by text);
      grant insert on public.ledger to anon`)
    const who = `select current_user as role, current_setting('request.jwt.claim.sub', true) as sub`
    const [before] = (await stack.db.pg.query(who)).rows
    const ctx = { role: 'anon', claims: { role: 'anon', sub: 'someone' } }
    const byCaller = `insert into public.ledger values ($1, current_setting('request.jwt.claim.sub'))`
    expect(await stack.db.writeAsUser(ctx, `${byCaller} returning id, by`, [1])).toEqual([
      { id: 1, by: 'someone' },
    ])
    const twice = `${byCaller}, ($1, 'again')`
    await expect(stack.db.writeAsUser(ctx, twice, [2])).rejects.toMatchObject({ code: '23505' })
    const { rows } = await stack.db.pg.query('select id, by from public.ledger order by id')
    expect(rows).toEqual([{ id: 1, by: 'someone' }])
    // The caller's role and claims ended with the transaction.
    expect((await stack.db.pg.query(who)).rows).toEqual([before])
  })

  it('takes parameters of every kind the services pass', async () => {
    const { rows } = await stack.db.pg.query<Record<string, unknown>>(
      `select $1::text as t, $2::int as n, $3::boolean as b, $4::jsonb as j, $5::text[] as a,
        $6::timestamptz as at, $7::uuid as u`,
      [
        "it's",
        7,
        false,
        JSON.stringify({ k: 'v' }),
        ['a', 'b c'],
        new Date('2024-01-01T00:00:00Z'),
        '00000000-0000-0000-0000-00000000000b',
      ],
    )
    expect(rows[0]).toEqual({
      t: "it's",
      n: 7,
      b: false,
      j: { k: 'v' },
      a: ['a', 'b c'],
      at: new Date('2024-01-01T00:00:00Z'),
      u: '00000000-0000-0000-0000-00000000000b',
    })
  })
})
