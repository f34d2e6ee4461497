import { afterAll, describe, expect, it } from 'vitest'
import { drainChanges, repeatUntil, settleUpkeep } from '../../bench/upkeep-settle.ts'
import { createUser, startStack } from './stack.ts'

const stack = await startStack()
afterAll(() => stack.stop())

/** Leaves `rows` dead rows in a table of its own: past upkeep's threshold. */
async function leaveDeadRows(table: string, rows: number) {
  await stack.db.pg.exec(`create table if not exists ${table} (id int)`)
  await stack.db.pg.query(`insert into ${table} select generate_series(1, $1)`, [rows])
  await stack.db.pg.exec(`delete from ${table}`)
}

describe("bench:search's wait for the server's own work after a load", () => {
  it('waits until the change feed has taken every queued change', async () => {
    const owner = await createUser(stack, 'drain')
    const { rows } = await stack.db.pg.query<{ id: string }>(
      `insert into public.workspaces (name, created_by) values ('Drain', $1) returning id`,
      [owner.id],
    )
    // A document row queues a change each: ten of the feed's batches.
    await stack.db.pg.query(
      `insert into public.documents (workspace_id, title, mime_type, status, stage)
       select $1, 'note ' || i, 'text/plain', 'ready', 'ready' from generate_series(1, 5000) i`,
      [rows[0]!.id],
    )
    const ms = await drainChanges(stack.db, 20)
    expect(ms).toBeGreaterThan(0)
    const left = await stack.db.pg.query<{ n: number }>(
      'select count(*)::int as n from realtime.changes',
    )
    expect(left.rows[0]!.n).toBe(0)
  }, 90_000)

  it('runs passes until one finds nothing due, and then has nothing left to do', async () => {
    await leaveDeadRows('public.settle_probe', 2_000)

    const first = await settleUpkeep(stack.upkeep)
    expect(first.settled).toBe(true)
    expect(first.tables).toContain('public.settle_probe')
    // The pass that vacuumed it, then at least the one that found nothing.
    expect(first.passes).toBeGreaterThanOrEqual(2)
    const { rows } = await stack.db.pg.query<{ dead: number }>(
      `select n_dead_tup::int as dead from pg_stat_user_tables where relname = 'settle_probe'`,
    )
    expect(rows[0]!.dead).toBe(0)

    const again = await settleUpkeep(stack.upkeep)
    expect(again).toMatchObject({ settled: true, passes: 1, tables: [] })
  }, 90_000)

  it('says so when the passes keep finding work', async () => {
    // An upkeep whose every pass vacuums something: never settled, stopped at the cap.
    const busy = {
      ...stack.upkeep,
      run: async () => {
        await leaveDeadRows('public.settle_busy', 500)
        return stack.upkeep.run()
      },
    }
    const result = await settleUpkeep(busy, 3)
    expect(result).toMatchObject({ settled: false, passes: 3 })
    expect(result.tables.filter((t) => t === 'public.settle_busy')).toHaveLength(3)
  }, 90_000)

  it('times queries while a pass runs, the last one begun before it ended', async () => {
    await leaveDeadRows('public.settle_probe', 2_000)
    let ended = false
    const pass = stack.upkeep.run().then((p) => {
      ended = true
      return p
    })
    const begunAfterEnd: number[] = []
    const steps = await repeatUntil(pass, async (i) => {
      if (ended) begunAfterEnd.push(i)
      await stack.db.pg.query('select count(*) from public.chunks')
    })
    expect(steps).toBeGreaterThanOrEqual(1)
    expect(begunAfterEnd).toEqual([])
    expect(ended).toBe(true)
    expect((await pass).tables.map((t) => t.table)).toContain('public.settle_probe')
  }, 90_000)
})
