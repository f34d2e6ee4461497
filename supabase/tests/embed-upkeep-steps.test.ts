import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { asBulk } from '../../packages/localbase/src/db/work-queue.ts'
import { embedText, startFakeProvider } from '../../tests/fake-provider/server.ts'
import { adminClient, clientFor, startStack, type Stack } from './stack.ts'
import { addReadyDocument, createPeople, createWorld, type People } from './world.ts'

// Issue #16: switching a workspace's embedding model, and dropping the vectors of a model it
// left, happen in short steps (settle_embeddings, each its own transaction), not one
// transaction over the workspace. Both models make 64-dimension vectors here, so only the
// per-chunk model tag keeps search from comparing a query with the other model's vectors:
// the old model's vectors are made different (of other text) to show which ones a search read.
const fake = await startFakeProvider({ apiKey: 'test', retryAfterSeconds: 0, dimensions: 64 })
const dataDir = mkdtempSync(join(tmpdir(), 'embed-upkeep-'))
const env = {
  OPENAI_API_KEY: 'test',
  OPENAI_BASE_URL: `${fake.url}/v1`,
  EMBED_TIME_BUDGET_MS: '600000',
}
let stack: Stack = await startStack(env, { dataDir })
afterAll(async () => {
  await stack.stop()
  await fake.close()
  rmSync(dataDir, { recursive: true, force: true })
})

const oldModel = 'openai:text-embedding-3-small'
const newModel = 'openai:text-embedding-ada-002'
const texts = Array.from(
  { length: 12 },
  (_, i) => `Survey ${i}: the ${['heron', 'egret', 'bittern'][i % 3]} colony held ${i * 3} nests.`,
)
const query = 'heron colony nests'
/** Five 64-dimension vectors per step. */
const moveNumbers = 5 * 64

let people: People
beforeAll(async () => {
  people = await createPeople(stack)
})

const cosine = (a: number[], b: number[]) => a.reduce((sum, x, i) => sum + x * b[i]!, 0)
const vectorText = (v: number[]) => JSON.stringify(v)
const oldVector = (content: string) => embedText(`an older model read ${content} otherwise`, 64)

async function setModels(workspaceId: string, models: Record<string, string | null>) {
  const { error } = await clientFor(stack, people.owner)
    .from('workspaces')
    .update(models)
    .eq('id', workspaceId)
  expect(error).toBeNull()
}

/**
 * A workspace on the old model whose chunks hold that model's vectors (of other text than
 * the new model's), and the new model pending with every chunk's vector staged.
 */
async function stagedSwitch() {
  const { workspaceId } = await createWorld(stack, people)
  await setModels(workspaceId, { embedding_model: oldModel })
  const { documentId, chunkIds } = await addReadyDocument(
    stack,
    people.editor,
    workspaceId,
    'Herons',
    texts,
  )
  const admin = adminClient(stack)
  const write = async (model: string, vectors: number[][]) => {
    const { data, error } = await admin.rpc('store_chunk_embeddings', {
      workspace_id: workspaceId,
      document_id: null,
      model,
      chunk_ids: chunkIds,
      embeddings: vectors.map(vectorText),
    })
    expect(error).toBeNull()
    expect(data).toBe(texts.length)
  }
  expect((await admin.rpc('ensure_embedding_index', { dims: 64 })).error).toBeNull()
  await write(oldModel, texts.map(oldVector))
  await setModels(workspaceId, { pending_embedding_model: newModel })
  await write(
    newModel,
    texts.map((t) => embedText(t, 64)),
  )
  return { workspaceId, documentId, chunkIds }
}

type Hit = { chunk_id: string; semantic_rank: number | null; similarity: number | null }

/** A viewer's search with the query embedded as the model would: the vector half's hits. */
async function semanticHits(workspaceId: string) {
  const { data, error } = await clientFor(stack, people.viewer).rpc('search_chunks', {
    workspace_id: workspaceId,
    query,
    match_count: 50,
    query_embedding: vectorText(embedText(query, 64)),
    snippets: false,
  })
  expect(error).toBeNull()
  return (data as Hit[]).filter((hit) => hit.semantic_rank !== null)
}

/** The similarity each chunk's vector of `made` (text → vector) has with the query. */
const similarities = (chunkIds: string[], made: (content: string) => number[]) =>
  new Map(chunkIds.map((id, i) => [id, cosine(embedText(query, 64), made(texts[i]!))]))

function expectRead(hits: Hit[], expected: Map<string, number>) {
  expect(hits).toHaveLength(expected.size)
  for (const hit of hits) expect(hit.similarity).toBeCloseTo(expected.get(hit.chunk_id)!, 5)
}

const settle = async (workspaceId: string, maxDrops = 5) => {
  const { data, error } = await adminClient(stack).rpc('settle_embeddings', {
    workspace_id: workspaceId,
    document_id: null,
    move_numbers: moveNumbers,
    max_drops: maxDrops,
  })
  expect(error).toBeNull()
  return data as { moved: number; dropped: number }
}

const chunkState = async (workspaceId: string) =>
  (
    await stack.db.pg.query<{ id: string; model: string | null; v: string | null }>(
      `select id, embedding_model as model, embedding::text as v from public.chunks
       where workspace_id = $1 order by ordinal`,
      [workspaceId],
    )
  ).rows

const stagedCount = async (workspaceId: string) =>
  (
    await stack.db.pg.query<{ n: number }>(
      'select count(*)::int as n from public.chunk_embeddings where workspace_id = $1',
      [workspaceId],
    )
  ).rows[0]!.n

function expectNewVectors(rows: { model: string | null; v: string | null }[]) {
  rows.forEach((row, i) => {
    expect(row.model).toBe(newModel)
    const expected = embedText(texts[i]!, 64)
    const stored = JSON.parse(row.v!) as number[]
    expect(Math.max(...stored.map((x, j) => Math.abs(x - expected[j]!)))).toBeLessThan(1e-6)
  })
}

describe('promoting a new embedding model', () => {
  it('moves the staged vectors in a few per step, each search between reading the new model’s alone', async () => {
    const { workspaceId, chunkIds } = await stagedSwitch()
    const oldSimilarities = similarities(chunkIds, oldVector)
    const newSimilarities = similarities(chunkIds, (t) => embedText(t, 64))
    // The old model serves until the switch.
    expectRead(await semanticHits(workspaceId), oldSimilarities)

    const promoted = await adminClient(stack).rpc('promote_embedding_model', {
      workspace_id: workspaceId,
    })
    expect(promoted.data).toBe(true)
    // The switch itself rewrote no vector: every chunk still holds the old model's.
    expect((await chunkState(workspaceId)).every((c) => c.model === oldModel)).toBe(true)
    expect(await stagedCount(workspaceId)).toBe(texts.length)

    const steps: number[] = []
    for (;;) {
      expectRead(await semanticHits(workspaceId), newSimilarities)
      const step = await settle(workspaceId)
      if (step.moved + step.dropped === 0) break
      steps.push(step.moved)
    }
    expect(steps).toEqual([5, 5, 2])
    expect(await stagedCount(workspaceId)).toBe(0)
    expectNewVectors(await chunkState(workspaceId))
  })

  it('counts for Settings the staged vectors search reads as searchable, moving in', async () => {
    const { workspaceId } = await stagedSwitch()
    const progress = async () => {
      const { data, error } = await clientFor(stack, people.viewer)
        .rpc('embedding_progress', { workspace_id: workspaceId })
        .single()
      expect(error).toBeNull()
      return data
    }
    const models = { embedding_model: oldModel, pending_embedding_model: newModel }
    // Built beside the old model, whose vectors serve every chunk meanwhile.
    expect(await progress()).toEqual({
      ...models,
      chunks: 12,
      searchable: 12,
      moving: 0,
      pending: 12,
    })
    await adminClient(stack).rpc('promote_embedding_model', { workspace_id: workspaceId })
    // Every chunk stays searchable by meaning while the new model's vectors move in.
    const seen = [await progress()]
    while ((await settle(workspaceId)).moved > 0) seen.push(await progress())
    expect(seen).toEqual(
      [12, 7, 2, 0].map((moving) => ({
        embedding_model: newModel,
        pending_embedding_model: null,
        chunks: 12,
        searchable: 12,
        moving,
        pending: 0,
      })),
    )
    const { data: outsider } = await clientFor(stack, people.outsider).rpc('embedding_progress', {
      workspace_id: workspaceId,
    })
    expect(outsider).toEqual([])
  })

  it('is finished by the next embed call after a crash part-way', async () => {
    const { workspaceId, documentId, chunkIds } = await stagedSwitch()
    await adminClient(stack).rpc('promote_embedding_model', { workspace_id: workspaceId })
    expect((await settle(workspaceId)).moved).toBe(5)

    // The server dies between two steps and starts again on the same data.
    await stack.stop()
    stack = await startStack(env, { dataDir })
    expectRead(
      await semanticHits(workspaceId),
      similarities(chunkIds, (t) => embedText(t, 64)),
    )

    fake.reset()
    const { data, error } = await clientFor(stack, people.editor).functions.invoke('embed', {
      body: { document_id: documentId },
    })
    expect(error).toBeNull()
    // The seven left are moved into place; none needed the provider.
    expect(data).toEqual({ embedded: 7, remaining: 0 })
    expect(fake.requests).toHaveLength(0)
    expect(await stagedCount(workspaceId)).toBe(0)
    expectNewVectors(await chunkState(workspaceId))
  }, 120_000)

  it('moves the whole workspace’s vectors when one document’s call completes the staging', async () => {
    const { workspaceId } = await stagedSwitch()
    const late = await addReadyDocument(
      stack,
      people.editor,
      workspaceId,
      'Egrets',
      texts.slice(0, 3),
    )
    const { data, error } = await clientFor(stack, people.editor).functions.invoke('embed', {
      body: { document_id: late.documentId },
    })
    expect(error).toBeNull()
    // Its 3 chunks staged, the model promoted, and all 15 staged vectors moved into place.
    expect(data).toEqual({ embedded: 18, remaining: 0 })
    expect(await stagedCount(workspaceId)).toBe(0)
    expect((await chunkState(workspaceId)).every((c) => c.model === newModel)).toBe(true)
  })
})

describe('a chunk whose text changes', () => {
  it('loses its vectors of the old text, and is embedded anew when its model is taken back', async () => {
    const { workspaceId, documentId, chunkIds } = await stagedSwitch()
    const edited = 'Survey 0, corrected: the spoonbill colony held 40 nests.'
    const { error } = await clientFor(stack, people.editor)
      .from('chunks')
      .update({ content: edited })
      .eq('id', chunkIds[0]!)
    expect(error).toBeNull()
    expect((await chunkState(workspaceId))[0]).toMatchObject({ model: null, v: null })
    expect(await stagedCount(workspaceId)).toBe(texts.length - 1)

    // The owner goes back to the old model: only the edited chunk needs a vector, of its text.
    await setModels(workspaceId, { pending_embedding_model: null })
    const { data } = await clientFor(stack, people.editor).functions.invoke('embed', {
      body: { document_id: documentId },
    })
    expect(data).toEqual({ embedded: 1, remaining: 0 })
    const [first, ...rest] = await chunkState(workspaceId)
    expect(first!.model).toBe(oldModel)
    const expected = embedText(edited, 64)
    const stored = JSON.parse(first!.v!) as number[]
    expect(Math.max(...stored.map((x, j) => Math.abs(x - expected[j]!)))).toBeLessThan(1e-6)
    expect(rest.every((c) => c.model === oldModel)).toBe(true)
  })
})

describe('a search while the model is promoted', () => {
  it('ranks lexically when the query was embedded with the model just replaced', async () => {
    const { workspaceId } = await stagedSwitch()
    const search = async () => {
      const { data, error } = await clientFor(stack, people.viewer).functions.invoke<{
        results: Hit[]
      }>('search', { body: { workspace_id: workspaceId, query, limit: 20, rerank: false } })
      expect(error).toBeNull()
      return data!.results
    }
    // The promotion lands while the function embeds the query with the old model.
    fake.script({
      kind: 'embeddings',
      before: async () => {
        const { data } = await adminClient(stack).rpc('promote_embedding_model', {
          workspace_id: workspaceId,
        })
        expect(data).toBe(true)
      },
    })
    const raced = await search()
    expect(raced.length).toBeGreaterThan(0)
    expect(raced.filter((hit) => hit.semantic_rank !== null)).toEqual([])
    // The next search embeds with the new model and reads its vectors.
    expect((await search()).filter((hit) => hit.semantic_rank !== null)).toHaveLength(12)
  })
})

describe('upkeep steps in the database queue', () => {
  it('wait behind a member’s request that came after them', async (context) => {
    // Postgres runs requests side by side; only PGlite's one connection queues them.
    if (stack.db.engine.kind !== 'pglite') return context.skip()
    const { workspaceId, documentId } = await stagedSwitch()
    await adminClient(stack).rpc('promote_embedding_model', { workspace_id: workspaceId })
    // The database busy with bulk work while both calls come in, the settle step first.
    let release!: () => void
    const gate = new Promise<void>((resolve) => (release = resolve))
    const held = asBulk(() => stack.db.pg.transaction(() => gate))
    const step = settle(workspaceId)
    await new Promise((resolve) => setTimeout(resolve, 300))
    // A query builder sends nothing until awaited.
    const rename = (async () =>
      await clientFor(stack, people.editor)
        .from('documents')
        .update({ title: 'Herons, renamed' })
        .eq('id', documentId))()
    await new Promise((resolve) => setTimeout(resolve, 500))
    release()
    await held
    expect((await rename).error).toBeNull()
    expect((await step).moved).toBe(5)
    // Transaction ids are handed out in the order the writes ran.
    const { rows } = await stack.db.pg.query<{ what: string }>(
      `select what from (
         select 'rename' as what, xmin from public.documents where id = $1
         union all
         select distinct 'settle', xmin from public.chunks
         where document_id = $1 and embedding_model = $2
       ) w order by xmin::text::bigint`,
      [documentId, newModel],
    )
    expect(rows.map((r) => r.what)).toEqual(['rename', 'settle'])
  })
})

describe('replacing the active model outright', () => {
  it('leaves the old vectors unread, drops them a few per step, then embeds anew', async () => {
    const { workspaceId } = await createWorld(stack, people)
    await setModels(workspaceId, { embedding_model: oldModel })
    const { documentId } = await addReadyDocument(
      stack,
      people.editor,
      workspaceId,
      'Herons',
      texts,
    )
    const embed = () =>
      clientFor(stack, people.editor).functions.invoke('embed', {
        body: { document_id: documentId },
      })
    expect((await embed()).data).toEqual({ embedded: texts.length, remaining: 0 })
    expect(await semanticHits(workspaceId)).toHaveLength(texts.length)

    await setModels(workspaceId, { embedding_model: newModel })
    // The change rewrote no chunk, and a search reads none of the old model's vectors.
    expect((await chunkState(workspaceId)).every((c) => c.model === oldModel)).toBe(true)
    expect(await semanticHits(workspaceId)).toEqual([])

    const steps: number[] = []
    for (;;) {
      const step = await settle(workspaceId)
      if (step.moved + step.dropped === 0) break
      steps.push(step.dropped)
    }
    expect(steps).toEqual([5, 5, 2])
    expect((await chunkState(workspaceId)).every((c) => c.v === null && c.model === null)).toBe(
      true,
    )

    expect((await embed()).data).toEqual({ embedded: texts.length, remaining: 0 })
    expectNewVectors(await chunkState(workspaceId))
  })

  it('drops the staged vectors of a model no longer pending, a few per step', async () => {
    const { workspaceId } = await stagedSwitch()
    await setModels(workspaceId, { pending_embedding_model: null })
    expect(await stagedCount(workspaceId)).toBe(texts.length)
    const steps: number[] = []
    for (;;) {
      const step = await settle(workspaceId, 4)
      if (step.moved + step.dropped === 0) break
      steps.push(step.dropped)
    }
    expect(steps).toEqual([4, 4, 4])
    expect(await stagedCount(workspaceId)).toBe(0)
    // The active model's vectors stay.
    expect((await chunkState(workspaceId)).every((c) => c.model === oldModel)).toBe(true)
  })
})
