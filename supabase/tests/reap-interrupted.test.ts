import { describe, expect, it } from 'vitest'
import { ingestFile } from '../../packages/core/src/ingest/ingest-file.ts'
import { startIngestWorld, textFile } from './ingest-helpers.ts'
import { adminClient } from './stack.ts'
import { termStatistics } from './term-statistics.ts'

const { stack, db, workspaceId, editor } = await startIngestWorld()
const { expectExactStatistics } = termStatistics(stack)

/** A document left 'processing' by an import that stopped mid-indexing: chunks and a text. */
async function partialImport(words: string): Promise<string> {
  const id = crypto.randomUUID()
  const inserted = await editor()
    .from('documents')
    .insert({
      id,
      workspace_id: workspaceId,
      title: words,
      storage_path: `${workspaceId}/${id}/notes.txt`,
      size_bytes: 100,
      sha256: (id + id).replaceAll('-', ''),
      status: 'processing',
      stage: 'indexing',
      chunk_count: 0,
    })
  expect(inserted.error).toBeNull()
  const chunks = await editor()
    .from('chunks')
    .insert(
      [0, 1, 2].map((ordinal) => ({
        document_id: id,
        workspace_id: workspaceId,
        ordinal,
        content: `${words} part ${ordinal}`,
      })),
    )
  expect(chunks.error).toBeNull()
  const text = await editor()
    .from('document_texts')
    .insert({ document_id: id, workspace_id: workspaceId, text: words })
  expect(text.error).toBeNull()
  return id
}

/** Its heartbeat stopped `minutes` ago (the touch_updated_at trigger kept out of the way). */
async function lastBeat(id: string, minutes: number) {
  await stack.db.pg.transaction(async (tx) => {
    await tx.query('set local session_replication_role = replica')
    await tx.query(
      `update public.documents set updated_at = now() - make_interval(mins => $2) where id = $1`,
      [id, minutes],
    )
  })
}

const stats = async () =>
  (
    await db.rows<{ chunk_count: string; total_length: string }>(
      'select chunk_count, total_length from public.workspace_chunk_stats where workspace_id = $1',
      [workspaceId],
    )
  )[0]
const termFreq = async (term: string) =>
  (
    await db.rows<{ chunk_freq: number }>(
      'select chunk_freq from public.chunk_term_stats where workspace_id = $1 and term = $2',
      [workspaceId, term],
    )
  )[0]?.chunk_freq ?? 0

const reap = (staleAfter = '2 minutes') =>
  adminClient(stack).rpc('reap_interrupted_documents', { stale_after: staleAfter })

describe('reap_interrupted_documents', () => {
  it('fails a stalled import and removes its chunks, statistics and text, nothing else', async () => {
    const ready = await ingestFile(editor(), {
      workspaceId,
      bytes: textFile('Lighthouse keepers log the weather'),
      fileName: 'lighthouse.txt',
    })
    expect(ready.status).toBe('ready')
    const before = await stats()
    const stalled = await partialImport('Zeppelin hangar inventory')
    const live = await partialImport('Quarry survey drafts')
    await lastBeat(stalled, 10)
    // One heartbeat missed: an import that is slow, not dead.
    await lastBeat(live, 1)
    // A document's chunks count in the statistics once it is ready, not while it is indexed.
    expect(await termFreq('zeppelin')).toBe(0)
    expect(await stats()).toEqual(before)

    const { data, error } = await reap()
    expect(error).toBeNull()
    expect(data).toBe(1)

    expect(await db.document(stalled)).toMatchObject({
      status: 'failed',
      stage: 'indexing',
      progress: 0,
      chunk_count: 0,
      error: expect.stringMatching(/^Interrupted: /),
    })
    expect(await db.chunkCount(stalled)).toBe(0)
    expect(await db.textCount(stalled)).toBe(0)
    expect(await termFreq('zeppelin')).toBe(0)

    expect(await db.document(live)).toMatchObject({ status: 'processing', error: null })
    expect(await db.chunkCount(live)).toBe(3)
    expect(await db.textCount(live)).toBe(1)
    expect(await termFreq('survey')).toBe(0)
    if (ready.status !== 'ready') return
    expect(await db.document(ready.documentId)).toMatchObject({ status: 'ready', error: null })
    expect(await db.chunkCount(ready.documentId)).toBe(ready.chunkCount)
    expect(await db.textCount(ready.documentId)).toBe(1)
    // The workspace's statistics are the ready document's chunks alone, as before.
    expect(await stats()).toEqual(before)
    await expectExactStatistics(workspaceId)

    // Idempotent: nothing left to reap, and the failed row stays as it was.
    expect((await reap()).data).toBe(0)
    expect(await db.document(stalled)).toMatchObject({ status: 'failed' })
  })

  it('clears chunks a late writer left on a failed document', async () => {
    const id = await partialImport('Orchard grafting notes')
    await db.rows(`update public.documents set status = 'failed' where id = $1`, [id])
    expect((await reap()).data).toBe(0)
    expect(await db.chunkCount(id)).toBe(0)
    expect(await db.textCount(id)).toBe(0)
    expect(await termFreq('orchard')).toBe(0)
    await expectExactStatistics(workspaceId)
  })

  it('only the service role may call it, with a sane threshold', async () => {
    const id = await partialImport('Glacier melt measurements')
    await lastBeat(id, 10)
    const refused = await editor().rpc('reap_interrupted_documents', { stale_after: '0 seconds' })
    expect(refused.error).toMatchObject({ code: '42501' })
    expect(await db.document(id)).toMatchObject({ status: 'processing' })
    const negative = await reap('-1 minute')
    expect(negative.error).toMatchObject({ code: '22023' })
    expect(await db.chunkCount(id)).toBe(3)
  })
})
