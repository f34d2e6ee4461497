import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { ingestFile } from '../../packages/core/src/ingest/ingest-file.ts'
import { retryDocument } from '../../packages/core/src/ingest/retry-document.ts'
import type { IngestProgress } from '../../packages/core/src/ingest/types.ts'
import { startFakeProvider } from '../../tests/fake-provider/server.ts'
import { inspect, searchDocuments, textFile } from './ingest-helpers.ts'
import { clientFor, startStack } from './stack.ts'
import { createPeople, createWorld, type People } from './world.ts'

// The embedding stage of ingestFile against the real embed Edge Function, whose provider is
// the fake one (an OpenAI-compatible server making 64-dimension vectors).
const fake = await startFakeProvider({ apiKey: 'test', retryAfterSeconds: 0 })
const stack = await startStack({
  OPENAI_COMPATIBLE_BASE_URL: `${fake.url}/v1`,
  OPENAI_COMPATIBLE_API_KEY: 'test',
  OPENAI_COMPATIBLE_EMBEDDING_MODEL: 'fake-embed-64',
})
afterAll(async () => {
  await stack.stop()
  await fake.close()
})
beforeEach(() => fake.reset())
const db = inspect(stack)

let people: People
beforeAll(async () => {
  people = await createPeople(stack)
})

const editor = () => clientFor(stack, people.editor)

async function workspace(embeddingModel: string | null) {
  const { workspaceId } = await createWorld(stack, people)
  const { error } = await clientFor(stack, people.owner)
    .from('workspaces')
    .update({ embedding_model: embeddingModel })
    .eq('id', workspaceId)
  expect(error).toBeNull()
  return workspaceId
}

const vectorDims = async (documentId: string) =>
  (
    await db.rows<{ dims: number | null }>(
      `select extensions.vector_dims(embedding) as dims from public.chunks
       where document_id = $1 order by ordinal`,
      [documentId],
    )
  ).map((r) => r.dims)

describe('the embedding stage', () => {
  it('embeds every chunk before the document is ready, when the workspace has a model', async () => {
    const workspaceId = await workspace('compatible:fake-embed-64')
    const stages: IngestProgress[] = []
    const result = await ingestFile(
      editor(),
      {
        workspaceId,
        bytes: textFile('Herbarium sheets of alpine gentians', 600),
        fileName: 'h.txt',
      },
      { onProgress: (p) => stages.push(p) },
    )
    expect(result).toMatchObject({ status: 'ready' })
    if (result.status !== 'ready') return
    expect(result.warning).toBeUndefined()
    const order = [...new Set(stages.map((p) => p.stage))]
    expect(order.slice(-2)).toEqual(['embedding', 'ready'])
    expect(await vectorDims(result.documentId)).toEqual(Array(result.chunkCount).fill(64))
    expect(await db.document(result.documentId)).toMatchObject({ status: 'ready', error: null })
    expect(fake.requests.filter((r) => r.kind === 'embeddings').length).toBeGreaterThan(0)
  })

  it('a failing provider leaves the document ready, searchable by keywords, with the reason', async () => {
    const workspaceId = await workspace('compatible:fake-embed-64')
    fake.script({ kind: 'embeddings', fail: 'unauthorized', times: 50 })
    const result = await ingestFile(editor(), {
      workspaceId,
      bytes: textFile('Herbarium sheets of lowland orchids', 300),
      fileName: 'o.txt',
    })
    expect(result).toMatchObject({
      status: 'ready',
      warning: expect.stringMatching(
        /^Embeddings could not be made \(.+\); keyword search works\.$/,
      ),
    })
    if (result.status !== 'ready') return
    expect(await db.document(result.documentId)).toMatchObject({
      status: 'ready',
      stage: 'ready',
      error: result.warning,
    })
    expect(new Set(await vectorDims(result.documentId))).toEqual(new Set([null]))
    expect(await searchDocuments(editor(), workspaceId, 'orchids')).toEqual([result.documentId])

    // Once the provider is back, a retry runs the embedding stage alone.
    fake.reset()
    const stages: IngestProgress[] = []
    const retried = await retryDocument(editor(), result.documentId, {
      onProgress: (p) => stages.push(p),
    })
    expect(retried).toMatchObject({ status: 'ready', chunkCount: result.chunkCount })
    expect(retried).not.toHaveProperty('warning')
    expect([...new Set(stages.map((p) => p.stage))]).toEqual(['embedding', 'ready'])
    expect(await db.document(result.documentId)).toMatchObject({
      status: 'ready',
      stage: 'ready',
      progress: 1,
      error: null,
    })
    expect(await vectorDims(result.documentId)).toEqual(Array(result.chunkCount).fill(64))
  })

  it('without a model, the document is ready after indexing and embed is never called', async () => {
    const workspaceId = await workspace(null)
    const stages: IngestProgress[] = []
    const result = await ingestFile(
      editor(),
      { workspaceId, bytes: textFile('Herbarium sheets of coastal grasses'), fileName: 'g.txt' },
      { onProgress: (p) => stages.push(p) },
    )
    expect(result).toMatchObject({ status: 'ready' })
    expect(stages.map((p) => p.stage)).not.toContain('embedding')
    expect(fake.requests).toEqual([])
  })
})
