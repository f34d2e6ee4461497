import { describe, expect, it } from 'vitest'
import { embedText } from '../../tests/fake-provider/server.ts'
import { clientFor } from './stack.ts'
import { startIngestWorld } from './ingest-helpers.ts'
import { addReadyDocument } from './world.ts'

// Upkeep after a workspace's vectors are all replaced (#16): vacuuming the HNSW index would
// repair nearly its whole graph, one search per element, so the index is rebuilt first and
// the vacuum has nothing left to repair; after a few replaced, it is vacuumed as it is.
const { stack, db, people, workspaceId } = await startIngestWorld()
const texts = Array.from({ length: 40 }, (_, i) => `Tide table ${i}: high water at ${i % 12} h.`)
const { chunkIds } = await addReadyDocument(stack, people.editor, workspaceId, 'Tides', texts)
await db.rows('select public.ensure_embedding_index(64)')
const index = 'public.chunks_embedding_64_idx'

/** Writes each chunk's vector as made from its text read by `model`. */
async function writeVectors(model: string, ids: string[]) {
  for (const id of ids) {
    const vector = JSON.stringify(embedText(`${model} read ${texts[chunkIds.indexOf(id)]}`, 64))
    await db.rows('update public.chunks set embedding = $2 where id = $1', [id, vector])
  }
}

const filenode = async () =>
  (
    await db.rows<{ node: string }>('select pg_relation_filenode($1::regclass)::text as node', [
      index,
    ])
  )[0]!.node

async function deadRows() {
  await db.rows('select pg_stat_force_next_flush()')
  return (
    await db.rows<{ dead: number }>(
      `select n_dead_tup::int as dead from pg_stat_user_tables where relid = 'public.chunks'::regclass`,
    )
  )[0]!.dead
}

async function nearest(model: string, i: number) {
  const { data, error } = await clientFor(stack, people.viewer).rpc('search_chunks', {
    workspace_id: workspaceId,
    query: 'zzzz',
    match_count: 1,
    query_embedding: JSON.stringify(embedText(`${model} read ${texts[i]}`, 64)),
    snippets: false,
  })
  expect(error).toBeNull()
  return (data as { chunk_id: string }[])[0]?.chunk_id
}

describe('upkeep of a table with an HNSW index', () => {
  it('rebuilds the index when all its vectors were replaced, and vacuums it after a few', async () => {
    await writeVectors('first', chunkIds)
    await stack.upkeep.run({ all: true })
    const built = await filenode()

    await writeVectors('second', chunkIds.slice(0, 4))
    const few = await stack.upkeep.run({ all: true })
    expect(await filenode()).toBe(built)

    await writeVectors('third', chunkIds)
    const all = await stack.upkeep.run({ all: true })
    // A rebuilt index is written to a new file.
    expect(await filenode()).not.toBe(built)
    expect(all.tables.find((t) => t.table === 'public.chunks')?.rebuilt).toEqual([index])
    expect(few.tables.find((t) => t.table === 'public.chunks')?.rebuilt).toEqual([])
    expect(await deadRows()).toBe(0)
    // The rebuilt index finds each chunk by its vector.
    expect(await nearest('third', 7)).toBe(chunkIds[7])
  })
})
