import { describe, expect, it } from 'vitest'
import { deleteDocument } from '../../packages/core/src/ingest/delete-document.ts'
import { ingestFile } from '../../packages/core/src/ingest/ingest-file.ts'
import { processFile } from '../../packages/core/src/ingest/process-file.ts'
import { retryDocument } from '../../packages/core/src/ingest/retry-document.ts'
import type { IngestResult, ProcessFile } from '../../packages/core/src/ingest/types.ts'
import { searchDocuments, startIngestWorld, textFile } from './ingest-helpers.ts'
import { adminClient, clientFor } from './stack.ts'
import { termStatistics } from './term-statistics.ts'
import { createWorld } from './world.ts'

// The term statistics count a document's chunks once, on its way to ready (some at a time by
// count_document_stats, the rest as it turns ready), and give back what was counted when chunks or documents
// go (20260101005700_chunk_stats_per_document.sql). Every path checked here against a recount
// from the chunks: expectExactStatistics.

const { stack, db, people, editor } = await startIngestWorld()
const { expectExactStatistics, keptPeaks } = termStatistics(stack)

const newWorkspace = async () => (await createWorld(stack, people)).workspaceId
const terms = async (workspace: string) => [...(await keptPeaks(workspace)).keys()]
const partialCounts = async () => db.rows('select * from public.document_stats_counts')

const ingest = (workspaceId: string, words: string, options = {}, times = 40) =>
  ingestFile(
    editor(),
    { workspaceId, bytes: textFile(words, times), fileName: `${words.split(' ')[0]}.txt` },
    { batchSize: 1, ...options },
  )

/** A document an import is indexing: processing, with its chunks stored. */
async function indexing(workspaceId: string, texts: string[]): Promise<string> {
  const id = crypto.randomUUID()
  const inserted = await editor()
    .from('documents')
    .insert({ id, workspace_id: workspaceId, title: texts[0], status: 'processing' })
  expect(inserted.error).toBeNull()
  const chunks = await editor()
    .from('chunks')
    .insert(
      texts.map((content, ordinal) => ({
        document_id: id,
        workspace_id: workspaceId,
        ordinal,
        content,
      })),
    )
  expect(chunks.error).toBeNull()
  return id
}

function documentOf(result: IngestResult): string {
  if (result.status === 'refused') throw new Error(result.error)
  return result.documentId
}

const countChunks = (documentId: string, maxChunks: number) =>
  editor().rpc('count_document_stats', { document_id: documentId, max_chunks: maxChunks })

describe('term statistics per document', () => {
  it('count an imported document exactly, and search finds it', async () => {
    const workspace = await newWorkspace()
    const result = await ingest(workspace, 'Walrus tusks ivory census')
    expect(result.status).toBe('ready')
    expect(await terms(workspace)).toContain('walrus')
    await expectExactStatistics(workspace, 'exact')
    expect(await partialCounts()).toEqual([])
    expect(await searchDocuments(editor(), workspace, 'walrus census')).toHaveLength(1)
  })

  it('count a document some chunks at a time, exact at every step and through chunk writes', async () => {
    const workspace = await newWorkspace()
    await ingest(workspace, 'Beacon harbour pilots')
    const id = await indexing(workspace, ['apple beacon', 'cedar dune', 'ember fjord', 'grove'])
    await expectExactStatistics(workspace)
    // Stemmed: apple is appl.
    expect(await terms(workspace)).not.toContain('appl')

    // The first two chunks, with their share of the totals.
    expect((await countChunks(id, 2)).data).toBe(2)
    expect(await partialCounts()).toEqual([{ document_id: id, counted_below: 2 }])
    await expectExactStatistics(workspace)
    expect(await terms(workspace)).toEqual(expect.arrayContaining(['appl', 'cedar']))
    expect(await terms(workspace)).not.toContain('ember')

    // Chunks written while it is counted in part count if they are below where it reached.
    const chunks = () => editor().from('chunks')
    expect((await chunks().delete().eq('document_id', id).eq('ordinal', 0)).error).toBeNull()
    await expectExactStatistics(workspace)
    expect(await terms(workspace)).not.toContain('appl')
    const rows = [0, 9].map((ordinal) => ({
      document_id: id,
      workspace_id: workspace,
      ordinal,
      content: `zinc ${ordinal ? 'yew' : 'xylem'}`,
    }))
    expect((await chunks().insert(rows)).error).toBeNull()
    await expectExactStatistics(workspace)
    expect(await terms(workspace)).toContain('xylem')
    expect(await terms(workspace)).not.toContain('yew')
    expect(
      (await chunks().update({ content: 'cedar ivy' }).eq('document_id', id).eq('ordinal', 1))
        .error,
    ).toBeNull()
    await expectExactStatistics(workspace)

    expect((await countChunks(id, 2)).data).toBe(2)
    await expectExactStatistics(workspace)
    // The update that makes it ready counts the rest.
    const ready = await editor().from('documents').update({ status: 'ready' }).eq('id', id)
    expect(ready.error).toBeNull()
    await expectExactStatistics(workspace)
    expect(await terms(workspace)).toEqual(expect.arrayContaining(['grove', 'yew', 'ivi']))
    expect(await partialCounts()).toEqual([])
    // A ready document is counted already.
    expect((await countChunks(id, 2)).data).toBe(0)
    await expectExactStatistics(workspace)
  })

  it('give back what was counted of a document that fails, is reaped or is deleted', async () => {
    const workspace = await newWorkspace()
    await ingest(workspace, 'Lantern oil ledger')
    await expectExactStatistics(workspace, 'exact')

    // Failed as failDocument fails it: its chunks go, then its status.
    const failed = await indexing(workspace, ['quartz lantern', 'quartz rune'])
    await countChunks(failed, 2)
    await editor().from('chunks').delete().eq('document_id', failed)
    await editor().from('documents').update({ status: 'failed' }).eq('id', failed)
    await expectExactStatistics(workspace)

    // Failed with its chunks still there (a late writer): the status change gives them back.
    const late = await indexing(workspace, ['topaz lantern', 'topaz vial'])
    await countChunks(late, 2)
    await editor().from('documents').update({ status: 'failed' }).eq('id', late)
    await expectExactStatistics(workspace)

    // Interrupted and reaped.
    const stalled = await indexing(workspace, ['umber lantern', 'umber wick'])
    await countChunks(stalled, 2)
    await stack.db.pg.transaction(async (tx) => {
      await tx.query('set local session_replication_role = replica')
      await tx.query(
        `update public.documents set updated_at = now() - interval '10 minutes' where id = $1`,
        [stalled],
      )
    })
    expect((await adminClient(stack).rpc('reap_interrupted_documents')).data).toBeGreaterThan(0)
    await expectExactStatistics(workspace)

    // Deleted while counted in part (a cancelled upload).
    const cancelled = await indexing(workspace, ['violet lantern', 'violet quill'])
    await countChunks(cancelled, 2)
    await editor().from('documents').delete().eq('id', cancelled)
    await expectExactStatistics(workspace)

    expect(await partialCounts()).toEqual([])
    for (const term of ['quartz', 'topaz', 'umber', 'violet'])
      expect(await terms(workspace)).not.toContain(term)
  })

  it('stay exact through a failed import, its retry, a new version, a retitle and a delete', async () => {
    const workspace = await newWorkspace()
    const kept = await ingest(workspace, 'Granite quarry survey')
    expect(kept.status).toBe('ready')

    // Fails on its last chunk insert (one chunk each): the others are stored, then all go.
    const breaking: ProcessFile = async (input, hooks) => {
      const processed = await processFile(input, hooks)
      const last = processed.chunks.length - 1
      expect(last).toBeGreaterThan(0)
      const chunks = processed.chunks.map((c, i) =>
        i === last ? { ...c, pageStart: 2, pageEnd: 1 } : c,
      )
      return { ...processed, chunks }
    }
    const failed = await ingest(workspace, 'Basalt column survey', { process: breaking }, 1500)
    expect(failed.status).toBe('failed')
    await expectExactStatistics(workspace)
    expect(await terms(workspace)).not.toContain('basalt')

    const retried = await retryDocument(editor(), documentOf(failed), { batchSize: 1 })
    expect(retried.status).toBe('ready')
    await expectExactStatistics(workspace)
    expect(await terms(workspace)).toContain('basalt')

    // A new version: counted once swapped in; the old one's own terms go with it.
    const next = await ingestFile(
      editor(),
      { workspaceId: workspace, bytes: textFile('Basalt pillar survey', 40), fileName: 'b2.txt' },
      { batchSize: 1, replacesId: documentOf(failed) },
    )
    expect(next.status).toBe('ready')
    await expectExactStatistics(workspace)
    expect(await terms(workspace)).toContain('pillar')
    expect(await terms(workspace)).not.toContain('column')

    // A retitle (the status written again as it was) and a re-index of a chunk's lexemes.
    const retitle = await editor()
      .from('documents')
      .update({ title: 'Pillars', status: 'ready' })
      .eq('id', documentOf(next))
    expect(retitle.error).toBeNull()
    const reindex = await editor()
      .from('chunks')
      .update({ heading_path: ['Mineral table', '| Mineral | Hardness |'] })
      .eq('document_id', documentOf(next))
      .eq('ordinal', 0)
    expect(reindex.error).toBeNull()
    await expectExactStatistics(workspace)
    expect(await terms(workspace)).toContain('hard')

    await deleteDocument(editor(), documentOf(next))
    await expectExactStatistics(workspace)
    expect(await terms(workspace)).not.toContain('basalt')
    expect(await partialCounts()).toEqual([])
    expect(await searchDocuments(editor(), workspace, 'granite survey')).toEqual([documentOf(kept)])
  })

  it('count_document_stats is for editors of the document, with a sane budget', async () => {
    const workspace = await newWorkspace()
    const id = await indexing(workspace, ['xenon yarrow'])
    for (const user of [people.viewer, people.outsider]) {
      const { error } = await clientFor(stack, user).rpc('count_document_stats', {
        document_id: id,
      })
      expect(error?.code).toBe('P0001')
    }
    expect((await countChunks(id, 0)).error?.code).toBe('22023')
    expect(await partialCounts()).toEqual([])
    expect(await terms(workspace)).toEqual([])
  })

  it('count_document_stats is declared bulk work, queued behind requests by localbase', async () => {
    const rows = await db.rows(
      `select p.proconfig from pg_proc p where p.oid = 'public.count_document_stats(uuid, int)'::regprocedure`,
    )
    expect(rows).toEqual([{ proconfig: expect.arrayContaining(['localbase.queue=bulk']) }])
  })
})
