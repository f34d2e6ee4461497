import { describe, expect, it } from 'vitest'
import { deleteDocument } from '../../packages/core/src/ingest/delete-document.ts'
import { ingestFile } from '../../packages/core/src/ingest/ingest-file.ts'
import { searchDocuments, startIngestWorld, textFile } from './ingest-helpers.ts'
import { clientFor } from './stack.ts'

const { stack, db, people, workspaceId, editor } = await startIngestWorld()

async function readyDocument(words: string, fileName: string) {
  const result = await ingestFile(editor(), { workspaceId, bytes: textFile(words, 400), fileName })
  if (result.status !== 'ready') throw new Error(JSON.stringify(result))
  const { storage_path } = (await db.document(result.documentId)) as { storage_path: string }
  return { id: result.documentId, path: storage_path }
}

/** Vectors as the embed function writes them: active in chunks, staged in chunk_embeddings. */
async function addVectors(documentId: string) {
  await db.rows(`update public.chunks set embedding = '[1,0,0]' where document_id = $1`, [
    documentId,
  ])
  await db.rows(
    `insert into public.chunk_embeddings (chunk_id, workspace_id, model, embedding)
     select id, workspace_id, 'openai:next', '[0,1,0]' from public.chunks where document_id = $1`,
    [documentId],
  )
}

const stagedCount = async (documentId: string) =>
  (
    await db.rows(
      `select 1 from public.chunk_embeddings e join public.chunks c on c.id = e.chunk_id
       where c.document_id = $1`,
      [documentId],
    )
  ).length
const totalStaged = async () => (await db.rows('select 1 from public.chunk_embeddings')).length

describe('deleting a document', () => {
  it('removes its original, its chunks, their vectors and their statistics', async () => {
    const keep = await readyDocument('Stays: minutes of the orchard society', 'keep.txt')
    const stats = await db.rows(
      'select * from public.workspace_chunk_stats where workspace_id = $1',
      [workspaceId],
    )
    const doc = await readyDocument('Goes: minutes of the quarry committee', 'goes.txt')
    await addVectors(doc.id)
    await addVectors(keep.id)
    const staged = await stagedCount(keep.id)
    expect(await stagedCount(doc.id)).toBeGreaterThan(0)

    await deleteDocument(editor(), doc.id)
    expect(await db.document(doc.id)).toBeUndefined()
    expect(await db.chunkCount(doc.id)).toBe(0)
    expect(await totalStaged()).toBe(staged)
    expect(await db.objectCount(doc.path)).toBe(0)
    expect(await searchDocuments(editor(), workspaceId, 'quarry')).toEqual([])
    // The other document and the workspace statistics are as before it came.
    expect(await db.objectCount(keep.path)).toBe(1)
    expect(await stagedCount(keep.id)).toBe(staged)
    expect(
      await db.rows('select * from public.workspace_chunk_stats where workspace_id = $1', [
        workspaceId,
      ]),
    ).toEqual(stats)
  })

  it('takes a pending new version (and its original) with it', async () => {
    const doc = await readyDocument('Timetable of the ferry', 'ferry.txt')
    const pending = await ingestFile(
      editor(),
      { workspaceId, bytes: new Uint8Array([0x48, 0x69, 0x81, 0x0a]), fileName: 'ferry-2.txt' },
      { replacesId: doc.id },
    )
    if (pending.status !== 'failed') throw new Error(JSON.stringify(pending))
    await deleteDocument(editor(), doc.id)
    expect(await db.document(doc.id)).toBeUndefined()
    expect(await db.document(pending.documentId)).toBeUndefined()
    expect(await db.objectCount(`${workspaceId}/${pending.documentId}/`)).toBe(0)
    expect(await db.objectCount(doc.path)).toBe(0)
  })

  it('deleteDocument by a viewer throws and touches nothing', async () => {
    const doc = await readyDocument('Rules of the chess club', 'chess.txt')
    const before = { row: await db.document(doc.id), chunks: await db.chunkCount(doc.id) }
    await expect(deleteDocument(clientFor(stack, people.viewer), doc.id)).rejects.toThrow(
      'Only editors and owners can delete documents.',
    )
    expect(await db.document(doc.id)).toEqual(before.row)
    expect(await db.chunkCount(doc.id)).toBe(before.chunks)
    expect(await db.objectCount(doc.path)).toBe(1)
    // Gone already, or never visible: nothing to do.
    await expect(deleteDocument(clientFor(stack, people.outsider), doc.id)).resolves.toBeUndefined()
    expect(await db.objectCount(doc.path)).toBe(1)
    await expect(deleteDocument(editor(), 'not-a-uuid')).rejects.toThrow('not a document id')
  })
})

describe('what an outsider sees', () => {
  // documents.test.ts covers rows, chunks and downloads; these are the vectors and search.
  it('no staged vectors, no search hits, no listing of the workspace folder', async () => {
    const doc = await readyDocument('Secret recipe for the harvest festival', 'recipe.txt')
    await addVectors(doc.id)
    const outsider = clientFor(stack, people.outsider)
    const staged = await outsider
      .from('chunk_embeddings')
      .select('chunk_id')
      .eq('workspace_id', workspaceId)
    expect(staged).toMatchObject({ error: null, data: [] })
    expect(await searchDocuments(outsider, workspaceId, 'harvest festival')).toEqual([])
    const listed = await outsider.storage.from('documents').list(`${workspaceId}/${doc.id}`)
    expect(listed.data ?? []).toEqual([])
    // While a viewer sees all three.
    const viewer = clientFor(stack, people.viewer)
    expect(
      (await viewer.from('chunk_embeddings').select('chunk_id').eq('workspace_id', workspaceId))
        .data!.length,
    ).toBeGreaterThan(0)
    expect(await searchDocuments(viewer, workspaceId, 'harvest festival')).toEqual([doc.id])
    expect(
      (await viewer.storage.from('documents').list(`${workspaceId}/${doc.id}`)).data,
    ).toHaveLength(1)
  })
})
