import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { embedText, startFakeProvider } from '../../tests/fake-provider/server.ts'
import { clientFor, startStack } from './stack.ts'
import { addReadyDocument, createPeople, createWorld, type People } from './world.ts'

// Issue #16: localbase's PGlite runs one statement at a time, and a vector goes into an HNSW
// index as its chunk is rewritten, so the embed function writes a provider batch's vectors a
// few at a time, each write its own transaction, for members' requests to get the database
// in between. The fake provider makes OpenAI's 1,536-dimension vectors.
const fake = await startFakeProvider({ apiKey: 'test', retryAfterSeconds: 0 })
const stack = await startStack({
  OPENAI_API_KEY: 'test',
  OPENAI_BASE_URL: `${fake.url}/v1`,
  EMBED_TIME_BUDGET_MS: '600000',
})
afterAll(async () => {
  await stack.stop()
  await fake.close()
})

let people: People
beforeAll(async () => {
  people = await createPeople(stack)
})

const embeddedCount = async (documentId: string) =>
  (
    await stack.db.pg.query<{ n: number }>(
      `select count(*)::int as n from public.chunks
       where document_id = $1 and embedding is not null`,
      [documentId],
    )
  ).rows[0]!.n

describe('a provider batch’s vectors', () => {
  it('are written in short transactions, with reads between them, and all of them', async () => {
    const { workspaceId } = await createWorld(stack, people)
    const { error } = await clientFor(stack, people.owner)
      .from('workspaces')
      .update({ embedding_model: 'openai:text-embedding-3-small' })
      .eq('id', workspaceId)
    expect(error).toBeNull()
    const texts = Array.from(
      { length: 64 },
      (_, i) => `Note ${i} on lichens: specimen ${i * 7} was pressed and dried.`,
    )
    const { documentId, chunkIds } = await addReadyDocument(
      stack,
      people.editor,
      workspaceId,
      'Lichens',
      texts,
    )

    let done = false
    const call = clientFor(stack, people.editor)
      .functions.invoke<{ embedded: number; remaining: number }>('embed', {
        body: { document_id: documentId },
      })
      .finally(() => (done = true))
    // One read at a time, as a member's requests come, until the call ends.
    const seen: number[] = []
    while (!done) seen.push(await embeddedCount(documentId))
    const reply = await call
    expect(reply.error).toBeNull()
    expect(reply.data).toEqual({ embedded: 64, remaining: 0 })

    // The provider had the 64 passages in one call; the database took them in pieces, and
    // the reads ran between them (one write of them all would show none, then all).
    expect(fake.requests.filter((r) => r.kind === 'embeddings')).toHaveLength(1)
    const partial = new Set(seen.filter((n) => n > 0 && n < 64))
    expect(partial.size).toBeGreaterThanOrEqual(3)

    // Every chunk has the vector the provider made for its text, as one write would leave it.
    const { rows } = await stack.db.pg.query<{ id: string; content: string; v: string }>(
      `select id, content, embedding::text as v from public.chunks
       where document_id = $1 order by ordinal`,
      [documentId],
    )
    expect(rows.map((r) => r.id)).toEqual(chunkIds)
    for (const row of rows) {
      const stored = JSON.parse(row.v) as number[]
      const expected = embedText(row.content, 1536)
      expect(stored).toHaveLength(1536)
      // pgvector keeps 32-bit floats.
      expect(Math.max(...stored.map((x, i) => Math.abs(x - expected[i]!)))).toBeLessThan(1e-6)
    }
  })
})
