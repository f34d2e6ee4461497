import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { DEFAULT_ANON_KEY } from '../src/config/keys.ts'
import type { JobRecord } from '../src/db/pglite-trace.ts'
import { startTestStack, type TestStack } from './helpers.ts'

// What a request costs the database worker, from its trace (LOCALBASE_DB_TRACE): every job
// holds PGlite's one connection, and each round trip of a transaction holds it while the main
// thread (busy with HTTP under load) gets round to sending the next message. Reads, calls of
// functions that are not VOLATILE, and writes whose result nothing may refuse are one job of
// one round trip.

const dir = mkdtempSync(join(tmpdir(), 'localbase-round-trips-'))
const file = join(dir, 'jobs.jsonl')
let stack: TestStack
const db = () => stack.client()

beforeAll(async () => {
  process.env.LOCALBASE_DB_TRACE = file // read once, when the engine opens
  try {
    stack = await startTestStack('rest')
  } finally {
    delete process.env.LOCALBASE_DB_TRACE
  }
})
afterAll(async () => {
  await stack?.stop()
  rmSync(dir, { recursive: true, force: true })
})

/**
 * The jobs recorded since the last call whose slowest statement mentions `name`, once one has
 * been written (the trace is written within 250 ms, later on a busy machine); for '', none,
 * after a flush's time so that the jobs before it are gone too.
 */
async function jobsNaming(name: string): Promise<JobRecord[]> {
  let jobs: JobRecord[] = []
  for (let waited = 100; waited <= 5000; waited += 100) {
    await new Promise((resolve) => setTimeout(resolve, 100))
    jobs = existsSync(file)
      ? readFileSync(file, 'utf8')
          .split('\n')
          .filter(Boolean)
          .map((line) => JSON.parse(line) as JobRecord)
      : []
    if (name === '' ? waited > 250 : jobs.some((job) => job.sql.includes(name))) break
  }
  rmSync(file, { force: true })
  return jobs.filter((job) => job.sql.includes(name))
}

beforeEach(async (context) => {
  if (stack.db.engine.kind !== 'pglite') return context.skip()
  await jobsNaming('') // starts each test with an empty trace
})

describe('database round trips per request', () => {
  it('reads a table in one job: the context (read-only included) and the select in one round trip', async () => {
    const { data, error } = await db().from('tags').select('id').limit(1)
    expect(error).toBeNull()
    expect(data).toHaveLength(1)
    expect(await jobsNaming('public.tags')).toEqual([
      expect.objectContaining({ kind: 'interactive', calls: 1, statements: 2 }),
    ])
  })

  it('calls a STABLE function by POST the same way, as PostgREST runs it read-only', async () => {
    const { data, error } = await db().rpc('channel_messages', { channel: 1 }).select('id')
    expect(error).toBeNull()
    expect(data).toEqual([{ id: 1 }, { id: 3 }])
    expect(await jobsNaming('channel_messages')).toEqual([
      expect.objectContaining({ calls: 1, statements: 2 }),
    ])
  })

  it('writes in one job of one round trip that commits: a VOLATILE call with its context', async () => {
    const { data, error } = await db().rpc('add_tag', { id: 300, name: 'volatile' })
    expect(error).toBeNull()
    expect(data).toEqual({ id: 300, name: 'volatile' })
    expect(await jobsNaming('add_tag')).toEqual([
      expect.objectContaining({ kind: 'interactive', calls: 1, statements: 2 }),
    ])
    const { rows } = await stack.db.pg.query('select name from public.tags where id = 300')
    expect(rows).toEqual([{ name: 'volatile' }])
  })

  it('leaves nothing of a one-round-trip write whose statement fails', async () => {
    const rows = [
      { id: 301, name: 'first' },
      { id: 301, name: 'again' },
    ]
    const { error, status } = await db().from('tags').insert(rows)
    expect(status).toBe(409)
    expect(error).toMatchObject({ code: '23505' })
    expect(await jobsNaming('insert into "public"."tags"')).toEqual([
      expect.objectContaining({ calls: 1, statements: 2 }),
    ])
    const left = await stack.db.pg.query('select 1 from public.tags where id = 301')
    expect(left.rows).toEqual([])
  })

  it('keeps a write open until its result is accepted when it may be refused (one object)', async () => {
    const rows = [
      { id: 302, name: 'one' },
      { id: 303, name: 'two' },
    ]
    const { error, status } = await db().from('tags').insert(rows).select().single()
    expect(status).toBe(406)
    expect(error).toMatchObject({ code: 'PGRST116' })
    // BEGIN with the context, the insert and ROLLBACK; any of them may be the slowest.
    await new Promise((resolve) => setTimeout(resolve, 1000)) // the trace is written by then
    const jobs = await jobsNaming('')
    expect(jobs.filter((job) => job.kind === 'interactive')).toEqual([
      expect.objectContaining({ calls: 3, statements: 4 }),
    ])
    const left = await stack.db.pg.query('select 1 from public.tags where id in (302, 303)')
    expect(left.rows).toEqual([])
  })
})

describe('read-only calls', () => {
  it('refuses a write inside a STABLE function called by POST with 405 25006, writing nothing', async () => {
    const { status, error } = await db().rpc('next_ticket')
    expect(status).toBe(405)
    expect(error).toEqual({
      code: '25006',
      details: null,
      hint: null,
      message: 'cannot execute nextval() in a read-only transaction',
    })
    const { rows } = await stack.db.pg.query<{ last_value: string; is_called: boolean }>(
      'select last_value, is_called from public.tickets',
    )
    expect(rows[0]).toMatchObject({ is_called: false })
  })

  it('still rolls a STABLE call back when asked with Prefer: tx=rollback', async () => {
    const res = await fetch(`${stack.url}/rest/v1/rpc/numbers`, {
      method: 'POST',
      headers: {
        apikey: DEFAULT_ANON_KEY,
        'content-type': 'application/json',
        prefer: 'tx=rollback',
      },
      body: JSON.stringify({ n: 2 }),
    })
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual([1, 2])
  })
})
