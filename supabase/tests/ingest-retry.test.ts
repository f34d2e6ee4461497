import { describe, expect, it } from 'vitest'
import { ingestFile } from '../../packages/core/src/ingest/ingest-file.ts'
import { retryDocument } from '../../packages/core/src/ingest/retry-document.ts'
import type { IngestProgress } from '../../packages/core/src/ingest/types.ts'
import { readShared, searchDocuments, startIngestWorld, textFile } from './ingest-helpers.ts'
import { clientFor } from './stack.ts'

const { stack, db, people, workspaceId, editor } = await startIngestWorld()
const pdfName = 'AMCOR_2022_8K_dated-2022-07-01.pdf'
const pdf = readShared(`financebench-pdfs/${pdfName}`)

/** Ingests and cancels mid-indexing: a failed 'cancelled' document with its original stored. */
async function cancelledDocument(bytes: Uint8Array, fileName: string): Promise<string> {
  const controller = new AbortController()
  const result = await ingestFile(
    editor(),
    { workspaceId, bytes, fileName },
    {
      signal: controller.signal,
      batchSize: 2,
      onProgress: (p) => {
        if (p.stage === 'indexing' && p.progress > 0.7) controller.abort()
      },
    },
  )
  if (result.status !== 'failed') throw new Error(JSON.stringify(result))
  return result.documentId
}

describe('retryDocument', () => {
  it('runs a failed document again from its stored original, under the same id', async () => {
    const id = await cancelledDocument(pdf, pdfName)
    expect(await db.chunkCount(id)).toBe(0)
    const stages: IngestProgress[] = []
    const result = await retryDocument(editor(), id, { onProgress: (p) => stages.push(p) })
    expect(result).toMatchObject({ status: 'ready', documentId: id, pageCount: 9 })
    if (result.status !== 'ready') return
    expect(stages.map((p) => p.stage)).toEqual(
      expect.arrayContaining(['extracting', 'chunking', 'indexing', 'ready']),
    )
    expect(await db.document(id)).toMatchObject({
      status: 'ready',
      stage: 'ready',
      error: null,
      page_count: 9,
      chunk_count: result.chunkCount,
    })
    expect(await db.chunkCount(id)).toBe(result.chunkCount)
    expect(await searchDocuments(editor(), workspaceId, 'Amcor')).toContain(id)
  })

  it('an interrupted document (still processing, with partial chunks) starts clean', async () => {
    const id = await cancelledDocument(textFile('Field notes on the coral reef', 600), 'reef.txt')
    // As if the tab had closed mid-indexing: processing, with some chunks written.
    await db.rows(
      `update public.documents set status = 'processing', stage = 'indexing' where id = $1`,
      [id],
    )
    const partial = await editor()
      .from('chunks')
      .insert(
        [0, 1].map((ordinal) => ({
          document_id: id,
          workspace_id: workspaceId,
          ordinal,
          content: 'half written coral',
        })),
      )
    expect(partial.error).toBeNull()

    const result = await retryDocument(editor(), id)
    expect(result).toMatchObject({ status: 'ready' })
    if (result.status !== 'ready') return
    const chunks = await db.rows<{ content: string }>(
      'select content from public.chunks where document_id = $1 order by ordinal',
      [id],
    )
    expect(chunks).toHaveLength(result.chunkCount)
    expect(chunks.every((c) => c.content.startsWith('Field notes on the coral reef'))).toBe(true)
  })

  it('a file that is really broken fails again with its reason', async () => {
    const broken = await ingestFile(editor(), {
      workspaceId,
      bytes: pdf.subarray(0, pdf.length >> 1),
      fileName: 'half.pdf',
    })
    if (broken.status !== 'failed') throw new Error(JSON.stringify(broken))
    const result = await retryDocument(editor(), broken.documentId)
    expect(result).toEqual({ status: 'failed', documentId: broken.documentId, error: broken.error })
    expect(await db.document(broken.documentId)).toMatchObject({
      status: 'failed',
      error: broken.error,
    })
    expect(await db.chunkCount(broken.documentId)).toBe(0)
  })

  it('fails with a reason when the original is gone from Storage', async () => {
    const id = await cancelledDocument(textFile('Inventory of the seed vault', 600), 'seeds.txt')
    const { storage_path } = (await db.document(id)) as { storage_path: string }
    expect((await editor().storage.from('documents').remove([storage_path])).error).toBeNull()
    const result = await retryDocument(editor(), id)
    expect(result).toMatchObject({
      status: 'failed',
      error: expect.stringMatching(/the original could not be downloaded/),
    })
    expect(await db.document(id)).toMatchObject({
      status: 'failed',
      error: result.status === 'failed' ? result.error : '',
    })
  })

  it('answers duplicate when the same bytes became a live document meanwhile', async () => {
    const bytes = textFile('Logbook of the research vessel', 600)
    const id = await cancelledDocument(bytes, 'logbook.txt')
    const again = await ingestFile(editor(), { workspaceId, bytes, fileName: 'logbook-again.txt' })
    if (again.status !== 'ready') throw new Error(JSON.stringify(again))
    expect(await retryDocument(editor(), id)).toEqual({
      status: 'duplicate',
      documentId: again.documentId,
      title: 'Logbook Again',
    })
    expect(await db.document(id)).toMatchObject({ status: 'failed', error: 'cancelled' })
  })

  it('refuses ready and unknown documents, and viewers, touching nothing', async () => {
    const ready = await ingestFile(editor(), {
      workspaceId,
      bytes: textFile('Charter of the rowing club'),
      fileName: 'charter.txt',
    })
    if (ready.status !== 'ready') throw new Error(JSON.stringify(ready))
    expect(await retryDocument(editor(), ready.documentId)).toEqual({
      status: 'refused',
      error: '"Charter" is already ready.',
    })
    expect(await retryDocument(editor(), crypto.randomUUID())).toEqual({
      status: 'refused',
      error: 'This document does not exist.',
    })

    const id = await cancelledDocument(textFile('Register of the bell ringers', 600), 'bells.txt')
    const before = await db.document(id)
    expect(await retryDocument(clientFor(stack, people.viewer), id)).toEqual({
      status: 'refused',
      error: 'Only editors and owners can retry documents.',
    })
    expect(await retryDocument(clientFor(stack, people.outsider), id)).toEqual({
      status: 'refused',
      error: 'This document does not exist.',
    })
    expect(await db.document(id)).toEqual(before)
  })
})
