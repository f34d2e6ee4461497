import { afterEach, describe, expect, it, vi } from 'vitest'
import { sha256Hex } from '../../packages/core/src/hash.ts'
import { ingestFile } from '../../packages/core/src/ingest/ingest-file.ts'
import type { IngestOptions } from '../../packages/core/src/ingest/types.ts'
import { uploadFile } from '../../packages/core/src/ingest/upload-file.ts'
import { stallImport, startIngestWorld, textFile } from './ingest-helpers.ts'

// The web app's upload (its ingest worker calls uploadFile): the same bytes as a failed or
// interrupted document retry that document, as the importer does, and leave nothing new.
const { stack, db, workspaceId, editor } = await startIngestWorld()

const upload = (bytes: Uint8Array, fileName: string, options: IngestOptions = {}) =>
  uploadFile(editor(), { workspaceId, bytes, fileName }, options)

/** Options that cancel the upload once indexing is under way. */
function cancelWhileIndexing(): IngestOptions {
  const controller = new AbortController()
  return {
    signal: controller.signal,
    batchSize: 1,
    onProgress: (p) => {
      if (p.stage === 'indexing' && p.progress > 0.5) controller.abort()
    },
  }
}

/** Every documents row of these bytes in the workspace, and the workspace's stored objects. */
async function traces(bytes: Uint8Array) {
  const rows = await db.rows<{ id: string; status: string; error: string | null }>(
    'select id, status, error from public.documents where workspace_id = $1 and sha256 = $2',
    [workspaceId, await sha256Hex(bytes)],
  )
  return { rows, objects: await db.objectCount(`${workspaceId}/`) }
}

describe('a web upload of the same file as a failed document', () => {
  it('retries an unreadable file under its id, and failing again leaves nothing new', async () => {
    // A PDF by its signature, unreadable past it: accepted at the door, failed by extraction.
    const broken = new TextEncoder().encode('%PDF-1.7\n' + 'torn pages '.repeat(200))
    const first = await upload(broken, 'minutes.pdf')
    expect(first).toMatchObject({ status: 'failed' })
    expect(first).not.toHaveProperty('resumed')
    const before = await traces(broken)
    expect(before.rows).toEqual([expect.objectContaining({ status: 'failed' })])

    const again = await upload(broken, 'minutes.pdf')
    expect(again).toMatchObject({
      status: 'failed',
      documentId: before.rows[0]!.id,
      resumed: 'failed',
    })
    const after = await traces(broken)
    expect(after.rows).toEqual([expect.objectContaining({ id: before.rows[0]!.id })])
    expect(after.objects).toBe(before.objects)
  })

  it('resumes a failed document to ready under its id, even by another name', async () => {
    const bytes = textFile('Orchard pruning plan for the west slope', 300)
    const cut = await upload(bytes, 'orchard.txt', cancelWhileIndexing())
    // A cancelled new upload leaves nothing, so the interrupted document is made by ingestFile.
    expect(cut).toMatchObject({ status: 'failed', error: 'cancelled' })
    expect((await traces(bytes)).rows).toEqual([])

    const failed = await ingestFile(
      editor(),
      { workspaceId, bytes, fileName: 'orchard.txt' },
      cancelWhileIndexing(),
    )
    expect(failed.status).toBe('failed')
    const id = (failed as { documentId: string }).documentId
    const before = await traces(bytes)
    expect(before.rows).toEqual([expect.objectContaining({ id, status: 'failed' })])
    expect(await db.chunkCount(id)).toBe(0)

    const result = await upload(bytes, 'orchard (1).txt')
    expect(result).toMatchObject({ status: 'ready', documentId: id, resumed: 'failed' })
    const after = await traces(bytes)
    expect(after.rows).toEqual([expect.objectContaining({ id, status: 'ready', error: null })])
    expect(after.objects).toBe(before.objects)
    expect(await db.chunkCount(id)).toBeGreaterThan(0)
    // Ready now: the same file again is the duplicate it always was.
    expect(await upload(bytes, 'orchard.txt')).toMatchObject({
      status: 'duplicate',
      documentId: id,
    })
  })

  it('keeps the earlier document, failed with its original, when its retry is cancelled', async () => {
    const broken = new TextEncoder().encode('%PDF-1.7\n' + 'smudged ledger '.repeat(200))
    const first = await upload(broken, 'ledger.pdf')
    expect(first.status).toBe('failed')
    const before = await traces(broken)

    const controller = new AbortController()
    const cancelled = await upload(broken, 'ledger.pdf', {
      signal: controller.signal,
      onProgress: () => controller.abort(),
    })
    expect(cancelled).toMatchObject({ status: 'failed', resumed: 'failed', error: 'cancelled' })
    const after = await traces(broken)
    expect(after.rows).toEqual([
      expect.objectContaining({ id: before.rows[0]!.id, status: 'failed' }),
    ])
    expect(after.objects).toBe(before.objects)
  })

  it('resumes a document whose heartbeat stopped, before it is reaped, and leaves nothing new', async () => {
    const bytes = textFile('Harbour dredging permits and tide tables', 300)
    const failed = await ingestFile(
      editor(),
      { workspaceId, bytes, fileName: 'harbour.txt' },
      cancelWhileIndexing(),
    )
    const id = (failed as { documentId: string }).documentId
    // Still beating 30 s ago: someone's live import, so the same file is a duplicate.
    await stallImport(stack, id, 30)
    expect(await upload(bytes, 'harbour.txt')).toMatchObject({
      status: 'duplicate',
      documentId: id,
    })
    // Silent for 90 s: the library shows it Interrupted, though the reaper waits for 2 minutes.
    await stallImport(stack, id, 90)
    const before = await traces(bytes)
    expect(before.rows).toEqual([expect.objectContaining({ id, status: 'processing' })])

    const result = await upload(bytes, 'harbour (1).txt')
    // Said as such: resumed from an interrupted import, not retried from a failed one.
    expect(result).toMatchObject({ status: 'ready', documentId: id, resumed: 'interrupted' })
    const after = await traces(bytes)
    expect(after.rows).toEqual([expect.objectContaining({ id, status: 'ready', error: null })])
    expect(after.objects).toBe(before.objects)
    const chunks = await db.rows<{ content: string }>(
      'select content from public.chunks where document_id = $1',
      [id],
    )
    expect(chunks.length).toBe((await db.document(id))!.chunk_count)
    expect(chunks.every((c) => c.content.startsWith('Harbour dredging'))).toBe(true)
  })
})

describe('the interrupted rule, with this machine’s clock minutes off', () => {
  const realNow = Date.now.bind(Date)
  /** This process's clock (supabase-js's and the importer's) `minutes` off; the database's is not. */
  const skewClock = (minutes: number) =>
    vi.spyOn(Date, 'now').mockImplementation(() => realNow() + minutes * 60_000)
  afterEach(() => vi.restoreAllMocks())

  it('judges a heartbeat by the database’s clock, ahead or behind', async () => {
    const bytes = textFile('Ferry timetable for the winter crossings', 300)
    const failed = await ingestFile(
      editor(),
      { workspaceId, bytes, fileName: 'ferry.txt' },
      cancelWhileIndexing(),
    )
    const id = (failed as { documentId: string }).documentId
    // Beating 30 s ago by the database's clock: live, though a clock 10 minutes fast would
    // see it silent for 10 minutes and take it over from under its importer.
    await stallImport(stack, id, 30)
    skewClock(10)
    expect(await upload(bytes, 'ferry.txt')).toMatchObject({ status: 'duplicate', documentId: id })
    expect((await traces(bytes)).rows).toEqual([
      expect.objectContaining({ id, status: 'processing' }),
    ])
    // Silent for 90 s: interrupted, though a clock 10 minutes slow would see it beat just now.
    vi.restoreAllMocks()
    await stallImport(stack, id, 90)
    skewClock(-10)
    const result = await upload(bytes, 'ferry.txt')
    expect(result).toMatchObject({ status: 'ready', documentId: id, resumed: 'interrupted' })
  })
})
