import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type JobRecord, traceSql } from '../src/db/pglite-trace.ts'
import { asBulk } from '../src/db/work-queue.ts'
import { startTestStack, type TestStack } from './helpers.ts'

const anon = { role: 'anon', claims: { role: 'anon' } }

describe('LOCALBASE_DB_TRACE', () => {
  const dir = mkdtempSync(join(tmpdir(), 'localbase-trace-'))
  const file = join(dir, 'jobs.jsonl')
  let stack: TestStack
  beforeAll(async () => {
    // Read once, when the engine opens.
    process.env.LOCALBASE_DB_TRACE = file
    try {
      stack = await startTestStack()
    } finally {
      delete process.env.LOCALBASE_DB_TRACE
    }
  })
  afterAll(async () => {
    await stack?.stop()
    rmSync(dir, { recursive: true, force: true })
  })

  it('counts the round trips and statements of a transaction', async (context) => {
    if (stack.db.engine.kind !== 'pglite') return context.skip()
    await stack.db.asUser(anon, (tx) => tx.query('select pg_sleep(0.3) as napped'))
    // Written within 250 ms, later on a busy machine.
    const napped = (job: JobRecord) => job.sql === 'select pg_sleep(0.3) as napped'
    let jobs: JobRecord[] = []
    for (let waited = 0; waited < 5000 && !jobs.some(napped); waited += 100) {
      await new Promise((resolve) => setTimeout(resolve, 100))
      if (!existsSync(file)) continue
      jobs = readFileSync(file, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as JobRecord)
    }
    // BEGIN with the context, the query (the slowest, naming the job) and COMMIT: four
    // statements in three messages to the worker while it is held.
    expect(jobs.find(napped)).toMatchObject({
      calls: 3,
      statements: 4,
    })
  })

  it('records each job of the worker: its kind, its wait, its hold and its slowest statement', async (context) => {
    if (stack.db.engine.kind !== 'pglite') return context.skip()
    const bulk = asBulk(() => stack.db.pg.query('select pg_sleep(0.3) as slept'))
    const read = stack.db.readAsUser(anon, 'select 1 as one', [])
    await Promise.all([bulk, read])
    await stack.stop()

    const jobs = readFileSync(file, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as JobRecord)
    const sleep = jobs.find((job) => job.sql === 'select pg_sleep(0.3) as slept')
    expect(sleep).toMatchObject({ kind: 'bulk' })
    expect(sleep!.holdMs).toBeGreaterThanOrEqual(300)
    // The read was queued while the sleep held the worker.
    const one = jobs.find((job) => job.sql === 'select 1 as one')
    expect(one).toMatchObject({ kind: 'interactive' })
    expect(one!.at).toBeGreaterThanOrEqual(sleep!.at + sleep!.holdMs)
    expect(one!.waitMs).toBeGreaterThan(0)
    // A pipelined read is one round trip carrying its context (read-only included) and query.
    expect(one).toMatchObject({ calls: 1, statements: 2 })
  })

  it('names a PostgREST read by what it reads', () => {
    const sql = `select coalesce(json_agg(_r), '[]')::text as body from (select "t0"."id"
      from "public"."documents" as t0 where "t0"."id" = $1) _r`
    expect(traceSql(sql)).toBe('read public.documents')
    const rpc = `select coalesce(json_agg(_r.v), '[]')::text as body from (select t0 as v from
      json_to_record($1) as _a(q text) cross join lateral "public"."search_chunks"(q => _a.q) t0) _r`
    expect(traceSql(rpc)).toBe('read public.search_chunks')
    const scalar = `select to_json(t0)::text as body, 1 as page from json_to_record($1) as _a(q text)
      cross join lateral "public"."search_with_settings"(q => _a.q) t0`
    expect(traceSql(scalar)).toBe('read public.search_with_settings')
    expect(traceSql('vacuum\n  public.chunks')).toBe('vacuum public.chunks')
  })
})
