import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { JobRecord } from '../../packages/localbase/src/db/pglite-trace.ts'
import { clientFor, startStack, type Stack } from './stack.ts'
import { addReadyDocument, createPeople, createWorld, type People } from './world.ts'

// search_with_settings (20260101007200): the search function's first call, the workspace's
// settings and the lexical search as the caller in one request, and what a search costs the
// database since (LOCALBASE_DB_TRACE, PGlite only).

const dir = mkdtempSync(join(tmpdir(), 'sourcebook-search-settings-'))
const trace = join(dir, 'jobs.jsonl')
let stack: Stack
let people: People
let workspaceId: string
let herbarium: { documentId: string; chunkIds: string[] }

beforeAll(async () => {
  process.env.LOCALBASE_DB_TRACE = trace // read once, when the engine opens
  try {
    stack = await startStack()
  } finally {
    delete process.env.LOCALBASE_DB_TRACE
  }
  people = await createPeople(stack)
  workspaceId = (await createWorld(stack, people)).workspaceId
  await stack.db.asService((tx) =>
    tx.query(`update public.workspaces set reranking = 'judge', chat_model = 'm' where id = $1`, [
      workspaceId,
    ]),
  )
  herbarium = await addReadyDocument(stack, people.editor, workspaceId, 'Herbarium notes', [
    'The mangrove samples from the estuary were dried slowly to keep their leaves intact.',
    'Mosses need no pressing; they are kept loose in paper packets.',
  ])
  await addReadyDocument(stack, people.editor, workspaceId, 'Voyage log', [
    'We anchored near the estuary at dawn; the crew went ashore for water.',
  ])
})
afterAll(async () => {
  await stack?.stop()
  rmSync(dir, { recursive: true, force: true })
})

const firstSearch = (client = clientFor(stack, people.viewer), scope = {}) =>
  client.rpc('search_with_settings', {
    workspace_id: workspaceId,
    query: 'estuary samples',
    match_count: 5,
    ...scope,
  })

describe('search_with_settings', () => {
  it("gives a member the workspace's settings and search_chunks' rows, exactly", async () => {
    const viewer = clientFor(stack, people.viewer)
    const { data, error } = await firstSearch(viewer)
    expect(error).toBeNull()
    const search = await viewer.rpc('search_chunks', {
      workspace_id: workspaceId,
      query: 'estuary samples',
      match_count: 5,
    })
    expect(search.data).toHaveLength(2)
    expect(data).toEqual({
      embedding_model: null,
      chat_model: 'm',
      reranking: 'judge',
      results: search.data,
    })
  })

  it('keeps to one document as search_document does, and to the kinds asked for', async () => {
    const viewer = clientFor(stack, people.viewer)
    const scope = { document_ids: [herbarium.documentId] }
    const { data } = await firstSearch(viewer, scope)
    const one = await viewer.rpc('search_document', {
      workspace_id: workspaceId,
      document: herbarium.documentId,
      query: 'estuary samples',
      match_count: 5,
    })
    expect(one.data).toHaveLength(1)
    expect((data as { results: unknown }).results).toEqual(one.data)
    const none = await firstSearch(viewer, { types: ['csv'] })
    expect((none.data as { results: unknown }).results).toEqual([])
  })

  it('leaves the lexical pass to the search function when the workspace has an embedding model', async () => {
    const setModel = (model: string | null) =>
      stack.db.pg.query(`update public.workspaces set embedding_model = $2 where id = $1`, [
        workspaceId,
        model,
      ])
    await setModel('openai:text-embedding-3-small')
    try {
      const { data, error } = await firstSearch()
      expect(error).toBeNull()
      expect(data).toMatchObject({
        embedding_model: 'openai:text-embedding-3-small',
        results: null,
      })
      // No provider answers here: embedding the query fails and the function searches by
      // keywords itself, so the passages are still found.
      const searched = await clientFor(stack, people.viewer).functions.invoke<{
        results: { chunk_id: string }[]
      }>('search', { body: { workspace_id: workspaceId, query: 'estuary samples', rerank: false } })
      expect(searched.error).toBeNull()
      expect(searched.data!.results).toHaveLength(2)
    } finally {
      await setModel(null)
    }
  })

  it('answers null to an outsider and refuses an anonymous caller', async () => {
    const outsider = await firstSearch(clientFor(stack, people.outsider))
    expect(outsider).toMatchObject({ data: null, error: null })
    const anonymous = await firstSearch(clientFor(stack))
    expect(anonymous.error?.code).toBe('42501')
  })
})

/** The jobs traced so far that read a workspace or search (upkeep and the like run too). */
function searchJobs(): JobRecord[] {
  if (!existsSync(trace)) return []
  return readFileSync(trace, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as JobRecord)
    .filter((job) => /workspaces|search_/.test(job.sql))
}

describe('a search through the search function', () => {
  it('is one job of the database, of one round trip', async (context) => {
    if (stack.db.engine.kind !== 'pglite') return context.skip()
    const search = () =>
      clientFor(stack, people.viewer).functions.invoke<{ results: unknown[] }>('search', {
        body: { workspace_id: workspaceId, query: 'estuary samples', rerank: false },
      })
    await search() // the function's process is started
    await new Promise((resolve) => setTimeout(resolve, 1000)) // the trace is written by then
    rmSync(trace, { force: true })
    const { data, error } = await search()
    expect(error).toBeNull()
    expect(data!.results).toHaveLength(2)
    // The trace is written within 250 ms (later on a busy machine); a second job would be too.
    for (let waited = 0; waited < 5000 && searchJobs().length === 0; waited += 100) {
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
    await new Promise((resolve) => setTimeout(resolve, 500))
    expect(searchJobs()).toEqual([
      expect.objectContaining({
        kind: 'interactive',
        calls: 1,
        sql: 'read public.search_with_settings',
      }),
    ])
  })
})
