import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { PostgresEngine } from '../src/db/postgres-engine.ts'
import { scratchDatabase, testDatabaseUrl } from './scratch-database.ts'

// Only with LOCALBASE_TEST_DATABASE_URL: pooled connections whose backends a restart ended
// (57P01, "terminating connection due to administrator command", as pg_terminate_backend
// sends). The first statement on one must not fail, and must not take the process down;
// a statement its backend was ended under must not run twice.
describe.skipIf(!testDatabaseUrl)('the Postgres pool after its backends end', () => {
  // Made in beforeAll: a skipped suite's body still runs, and would leave it behind.
  let dataDir: string
  let database: NonNullable<Awaited<ReturnType<typeof scratchDatabase>>>
  let engine: PostgresEngine
  let admin: pg.Client

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'localbase-pg-restart-'))
    database = (await scratchDatabase(dataDir))!
    engine = new PostgresEngine(database.url)
    admin = new pg.Client({ connectionString: database.url })
    await admin.connect()
    await admin.query('create table if not exists ledger (id int)')
  })
  afterAll(async () => {
    await admin?.end()
    await engine?.close()
    await database?.drop()
    rmSync(dataDir, { recursive: true, force: true })
  })

  /** Backends ended so far: one may still be listed while it exits. */
  const ended: number[] = []

  /** Ends every other backend of this database, as a restart does. */
  const endBackends = async (where = 'true') => {
    const result = await admin.query<{ pid: number }>(
      `select pid, pg_terminate_backend(pid) from pg_stat_activity
       where datname = current_database() and pid <> pg_backend_pid() and ${where}`,
    )
    ended.push(...result.rows.map((row) => row.pid))
    return result
  }

  /**
   * Pooled connections, then their backends ended while this process reads nothing (a busy
   * server): the ends wait unread, so the pool still holds the connections as idle.
   */
  async function poolEndedUnawares() {
    await Promise.all([1, 2, 3].map(() => engine.session.query('select pg_sleep(0.02)')))
    const { rowCount } = await endBackends()
    expect(rowCount).toBeGreaterThanOrEqual(2)
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 300)
  }

  it('runs the first statement, read and transaction after it on a fresh connection', async () => {
    await poolEndedUnawares()
    expect((await engine.session.query('select 1 as one')).rows).toEqual([{ one: 1 }])
    await poolEndedUnawares()
    expect(await engine.read([], 'select 2 as two', [])).toEqual([{ two: 2 }])
    await poolEndedUnawares()
    let runs = 0
    await engine.session.transaction(async (tx) => {
      runs++
      await tx.query('insert into ledger values (1)')
    })
    expect(runs).toBe(1)
    expect((await admin.query('select count(*)::int as n from ledger where id = 1')).rows).toEqual([
      { n: 1 },
    ])
    await admin.query('delete from ledger')
    // Still serving: nothing was left broken in the pool.
    expect((await engine.session.query('select 3 as three')).rows).toEqual([{ three: 3 }])
  })

  /**
   * Holds the advisory lock a statement under test waits on: it cannot finish before its
   * backend is ended, however slow the machine, and a retry would wait until `release`.
   */
  const blocker = {
    hold: () => admin.query('select pg_advisory_lock(7)'),
    release: () => admin.query('select pg_advisory_unlock(7)'),
  }
  /** Ends the backend running `sql` once it waits on the blocker's lock. */
  const endWhenWaiting = (sql: string) =>
    expect
      .poll(
        async () =>
          (await endBackends(`query = '${sql}' and state = 'active' and wait_event_type = 'Lock'`))
            .rowCount,
        { timeout: 5000, interval: 50 },
      )
      .toBe(1)

  it('never runs again a statement its backend was ended under', async () => {
    // A write, then a wait during which its backend is ended: run again, it would write twice,
    // and this call would succeed once the lock is released.
    const sql = `with w as (insert into ledger values (2) returning id) select pg_advisory_xact_lock(7) from w`
    await blocker.hold()
    const running = engine.session.query(sql)
    running.catch(() => {})
    await endWhenWaiting(sql)
    await blocker.release()
    await expect(running).rejects.toMatchObject({ code: '57P01' })
    expect((await admin.query('select count(*)::int as n from ledger where id = 2')).rows).toEqual([
      { n: 0 },
    ])
    const again = await admin.query(
      `select 1 from pg_stat_activity where query = $1 and pid <> all($2::int[])`,
      [sql, ended],
    )
    expect(again.rowCount).toBe(0)
  })

  it('never runs a transaction’s work again when its connection ends midway', async () => {
    const sql = 'select pg_advisory_xact_lock(7)'
    await blocker.hold()
    let runs = 0
    const running = engine.session.transaction(async (tx) => {
      runs++
      await tx.query('insert into ledger values (3)')
      await tx.query(sql)
    })
    running.catch(() => {})
    await endWhenWaiting(sql)
    await blocker.release()
    await expect(running).rejects.toMatchObject({ code: '57P01' })
    expect(runs).toBe(1)
    expect((await admin.query('select count(*)::int as n from ledger where id = 3')).rows).toEqual([
      { n: 0 },
    ])
  })
})
