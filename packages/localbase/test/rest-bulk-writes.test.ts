import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DEFAULT_ANON_KEY } from '../src/config/keys.ts'
import { asBulk } from '../src/db/work-queue.ts'
import { isBulkWrite } from '../src/rest/bulk-write.ts'
import { startTestStack, type TestStack } from './helpers.ts'

// Which REST writes wait behind the requests someone is waiting on (db/work-queue.ts): an
// import's many-row writes do; a single row of any size (a long chat message) does not.

const text = (chars: number) => 'x'.repeat(chars)
/** isBulkWrite of a body as sent, parsed as the plan parses it. */
const bulk = (method: string, rpc: boolean, body: string) =>
  isBulkWrite(method, rpc, body, JSON.parse(body))

describe('isBulkWrite', () => {
  it('takes a large multi-row insert or a function given arrays for bulk, by what it is', () => {
    const rows = JSON.stringify([{ content: text(20_000) }, { content: text(20_000) }])
    expect(bulk('POST', false, rows)).toBe(true)
    const vectors = JSON.stringify({ chunk_ids: ['a', 'b'], embeddings: [text(9000), text(9000)] })
    expect(bulk('POST', true, vectors)).toBe(true)
  })

  it('keeps single rows of any size, and anything small, interactive', () => {
    expect(bulk('POST', false, JSON.stringify({ content: text(40_000) }))).toBe(false)
    expect(bulk('POST', false, JSON.stringify([{ content: text(40_000) }]))).toBe(false)
    expect(bulk('PATCH', false, JSON.stringify({ messages: [text(40_000), 'b'] }))).toBe(false)
    expect(bulk('POST', true, JSON.stringify({ question: text(40_000) }))).toBe(false)
    expect(bulk('POST', false, JSON.stringify([{ a: 1 }, { a: 2 }]))).toBe(false)
  })
})

describe('REST writes in the work queue', () => {
  let stack: TestStack
  beforeAll(async () => {
    stack = await startTestStack('rest')
  })
  afterAll(() => stack?.stop())

  const insert = (body: unknown) =>
    fetch(`${stack.url}/rest/v1/tags`, {
      method: 'POST',
      headers: { apikey: DEFAULT_ANON_KEY, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    })

  it('runs a 40 KB single-row insert ahead of a bulk insert queued before it', async () => {
    // Bulk work holds the database until released: both inserts queue behind it.
    let release!: () => void
    const gate = new Promise<void>((resolve) => (release = resolve))
    const held = asBulk(() => stack.db.pg.transaction(() => gate))
    const bulk = insert([
      { id: 900, name: text(20_000) },
      { id: 901, name: text(20_000) },
    ])
    await new Promise((resolve) => setTimeout(resolve, 300))
    const single = insert({ id: 902, name: text(40_000) })
    // Time for both requests to reach the queue; the order they run in is what is checked.
    await new Promise((resolve) => setTimeout(resolve, 1000))
    release()
    await held
    expect((await single).status).toBe(201)
    expect((await bulk).status).toBe(201)
    // Transaction ids are handed out in the order the writes ran.
    const { rows } = await stack.db.pg.query<{ id: number; xid: string }>(
      'select id, xmin::text as xid from public.tags where id >= 900 order by xmin::text::bigint',
    )
    expect(rows.map((r) => r.id)).toEqual([902, 900, 901])
  })

  const call = (name: string, body: unknown) =>
    fetch(`${stack.url}/rest/v1/rpc/${name}`, {
      method: 'POST',
      headers: { apikey: DEFAULT_ANON_KEY, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    })

  it("queues calls of a function declared bulk (localbase.queue) behind a plain function's", async () => {
    let release!: () => void
    const gate = new Promise<void>((resolve) => (release = resolve))
    const held = asBulk(() => stack.db.pg.transaction(() => gate))
    // Small scalar arguments: by its body alone this call would be interactive.
    const declared = call('add_tag_later', { id: 910, name: 'later' })
    await new Promise((resolve) => setTimeout(resolve, 300))
    const plain = call('add_tag', { id: 911, name: 'now' })
    await new Promise((resolve) => setTimeout(resolve, 1000))
    release()
    await held
    expect((await declared).status).toBe(200)
    expect((await plain).status).toBe(200)
    const { rows } = await stack.db.pg.query<{ id: number }>(
      'select id from public.tags where id in (910, 911) order by xmin::text::bigint',
    )
    expect(rows.map((r) => r.id)).toEqual([911, 910])
  })

  it('runs calls of a plain function in the order they came', async () => {
    let release!: () => void
    const gate = new Promise<void>((resolve) => (release = resolve))
    const held = asBulk(() => stack.db.pg.transaction(() => gate))
    const first = call('add_tag', { id: 920, name: 'first' })
    await new Promise((resolve) => setTimeout(resolve, 300))
    const second = call('add_tag', { id: 921, name: 'second' })
    await new Promise((resolve) => setTimeout(resolve, 1000))
    release()
    await held
    expect((await first).status).toBe(200)
    expect((await second).status).toBe(200)
    const { rows } = await stack.db.pg.query<{ id: number }>(
      'select id from public.tags where id in (920, 921) order by xmin::text::bigint',
    )
    expect(rows.map((r) => r.id)).toEqual([920, 921])
  })
})
