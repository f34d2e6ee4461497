import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { JobRecord } from '../src/db/pglite-trace.ts'
import { startTestStack, type TestStack } from './helpers.ts'

// The database queue puts the shorter jobs first by what each key's jobs held before
// (db/work-queue.ts): requests must name their jobs by what they run, as the trace shows.

const dir = mkdtempSync(join(tmpdir(), 'localbase-job-keys-'))
const file = join(dir, 'jobs.jsonl')
let stack: TestStack

beforeAll(async () => {
  process.env.LOCALBASE_DB_TRACE = file // read once, when the engine opens
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

/** The keys of the jobs traced so far, once `key` is among them (written within 250 ms). */
async function keysOnceTraced(key: string): Promise<string[]> {
  let keys: string[] = []
  for (let waited = 0; waited < 5000 && !keys.includes(key); waited += 100) {
    await new Promise((resolve) => setTimeout(resolve, 100))
    if (!existsSync(file)) continue
    keys = readFileSync(file, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => (JSON.parse(line) as JobRecord).key)
  }
  return keys
}

describe("database jobs carry their request's key", () => {
  it('REST: method, schema and relation', async (context) => {
    if (stack.db.engine.kind !== 'pglite') return context.skip()
    const read = await stack.admin().from('notes').select('id')
    expect(read.error).toBeNull()
    const write = await stack.admin().schema('personal').from('diary').insert({ id: 7, entry: 'x' })
    expect(write.error).toBeNull()
    const keys = await keysOnceTraced('rest POST personal.diary')
    expect(keys).toContain('rest GET public.notes')
    expect(keys).toContain('rest POST personal.diary')
  })

  it('Auth and Storage: method and route', async (context) => {
    if (stack.db.engine.kind !== 'pglite') return context.skip()
    const user = await stack.admin().auth.admin.createUser({ email: 'keys@example.test' })
    expect(user.error).toBeNull()
    const bucket = await stack.admin().storage.createBucket('keyed')
    expect(bucket.error).toBeNull()
    const keys = await keysOnceTraced('storage POST /storage/v1/bucket')
    expect(keys).toContain('auth POST /auth/v1/admin/users')
    expect(keys).toContain('storage POST /storage/v1/bucket')
  })
})
