import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { PGliteEngine } from '../src/db/pglite-engine.ts'
import { asBulk } from '../src/db/work-queue.ts'
import { startTestStack, type TestStack } from './helpers.ts'

const anon = { role: 'anon', claims: { role: 'anon' } }

describe('PGlite in its worker thread', () => {
  let stack: TestStack
  beforeAll(async () => {
    stack = await startTestStack()
  })
  afterAll(() => stack?.stop())

  it('keeps answering HTTP while a long statement runs', async () => {
    const started = performance.now()
    const long = stack.db.pg.query('select pg_sleep(3)')
    const live = await fetch(`${stack.url}/health/live`)
    expect(live.status).toBe(200)
    // On PGlite's thread the answer would have waited the whole three seconds.
    expect(performance.now() - started).toBeLessThan(2000)
    await long
    expect(performance.now() - started).toBeGreaterThanOrEqual(3000)
  })

  it('runs a request’s read ahead of bulk work queued before it', async () => {
    const order: string[] = []
    const bulk = [1, 2, 3].map((i) =>
      asBulk(() => stack.db.pg.query('select pg_sleep(0.3)')).then(() => order.push(`bulk ${i}`)),
    )
    const read = stack.db
      .readAsUser(anon, 'select 1 as one', [])
      .then((rows) => order.push(`read ${JSON.stringify(rows)}`))
    await Promise.all([...bulk, read])
    // The first bulk statement was under way; the read went before the two still waiting.
    expect(order).toEqual(['bulk 1', 'read [{"one":1}]', 'bulk 2', 'bulk 3'])
  })

  it('sends jobs ahead in order: reads queued behind a transaction see its commit, each its own answer', async () => {
    await stack.db.pg.exec(`create table public.sent_ahead (n int);
      grant select on public.sent_ahead to anon`)
    const tx = stack.db.pg.transaction(async (t) => {
      await t.query('insert into public.sent_ahead values (1)')
      await t.query('select pg_sleep(0.2)')
      await t.query('insert into public.sent_ahead values (2)')
    })
    // Queued while the transaction holds the worker; the first is sent as its commit is.
    const reads = [1, 2, 3, 4, 5].map((i) =>
      stack.db.readAsUser(anon, 'select count(*)::int as n, $1::int as i from public.sent_ahead', [
        i,
      ]),
    )
    await tx
    expect(await Promise.all(reads)).toEqual([1, 2, 3, 4, 5].map((i) => [{ n: 2, i }]))
  })

  it('delivers NOTIFY from the worker to a listener on this thread', async () => {
    const payloads: string[] = []
    const unlisten = await stack.db.pg.listen('worker_test', (payload) => payloads.push(payload))
    await stack.db.pg.query(`select pg_notify('worker_test', 'hello')`)
    await expect.poll(() => payloads).toEqual(['hello'])
    await unlisten()
    await stack.db.pg.query(`select pg_notify('worker_test', 'after')`)
    await new Promise((resolve) => setTimeout(resolve, 100))
    expect(payloads).toEqual(['hello'])
  })

  it('reports Postgres errors with their fields, and rolls back a failed transaction', async () => {
    await expect(stack.db.pg.query('select * from nowhere')).rejects.toMatchObject({
      code: '42P01',
      message: 'relation "nowhere" does not exist',
    })
    await stack.db.pg.exec('create table worker_rollback (n int)')
    await expect(
      stack.db.asService(async (tx) => {
        await tx.query('insert into worker_rollback values (1)')
        throw new Error('changed my mind')
      }),
    ).rejects.toThrow('changed my mind')
    expect(
      (await stack.db.pg.query('select count(*)::int as n from worker_rollback')).rows,
    ).toEqual([{ n: 0 }])
  })

  // Last: the stack has no database afterwards.
  it('fails every call with the reason when the worker dies, and /health/ready says so', async () => {
    const under = stack.db.pg.query('select pg_sleep(10)')
    await (stack.db.engine as PGliteEngine).worker.terminate()
    await expect(under).rejects.toThrow(/database worker exited/)
    await expect(stack.db.readAsUser(anon, 'select 1', [])).rejects.toThrow(
      /database worker exited/,
    )
    const ready = await fetch(`${stack.url}/health/ready`)
    expect(ready.status).toBe(503)
    expect(await ready.json()).toMatchObject({
      status: 'unavailable',
      database: { ok: false, error: expect.stringMatching(/database worker exited/) },
    })
  })
})
