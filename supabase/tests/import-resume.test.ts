import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { sha256Hex } from '../../packages/core/src/hash.ts'
import { ingestFile } from '../../packages/core/src/ingest/ingest-file.ts'
import { processFile } from '../../packages/core/src/ingest/process-file.ts'
import { DOCUMENTS_BUCKET } from '../../packages/core/src/ingest/storage-path.ts'
import { runImport } from '../../scripts/import/run-import.ts'
import { walk } from '../../scripts/import/walk.ts'
import { stallImport, startIngestWorld, textFile } from './ingest-helpers.ts'
import { adminClient } from './stack.ts'

const { stack, db, workspaceId, editor } = await startIngestWorld()
const folders: string[] = []
afterAll(() => folders.forEach((f) => rmSync(f, { recursive: true, force: true })))

/** Runs the importer's own loop over a folder holding this one file. */
async function importFile(name: string, bytes: Uint8Array) {
  const folder = mkdtempSync(join(tmpdir(), 'sourcebook-resume-'))
  folders.push(folder)
  writeFileSync(join(folder, name), bytes)
  const { files } = await walk(folder)
  return runImport(editor(), { workspaceId, files, process: processFile, concurrency: 1 })
}

/** Ingests and cancels mid-indexing: a failed document with partial work undone. */
async function failedDocument(bytes: Uint8Array, fileName: string): Promise<string> {
  const controller = new AbortController()
  const result = await ingestFile(
    editor(),
    { workspaceId, bytes, fileName },
    {
      signal: controller.signal,
      batchSize: 1,
      onProgress: (p) => {
        if (p.stage === 'indexing' && p.progress > 0.7) controller.abort()
      },
    },
  )
  if (result.status !== 'failed') throw new Error(JSON.stringify(result))
  return result.documentId
}

/** Every documents row and stored object of these bytes in the workspace. */
async function traces(bytes: Uint8Array) {
  const sha256 = await sha256Hex(bytes)
  const rows = await db.rows<{ id: string; status: string; storage_path: string }>(
    'select id, status, storage_path from public.documents where workspace_id = $1 and sha256 = $2',
    [workspaceId, sha256],
  )
  const objects = await db.rows<{ name: string }>(
    `select name from storage.objects where bucket_id = 'documents' and name like $1`,
    [`${workspaceId}/%`],
  )
  return { rows, objects: objects.filter((o) => rows.some((r) => r.storage_path === o.name)) }
}

const objectTotal = async () => db.objectCount(`${workspaceId}/`)

/** Ready under its id, its chunks all from this import, no row or object added. */
async function expectResumed(id: string, bytes: Uint8Array, objects: number) {
  expect(await db.document(id)).toMatchObject({ status: 'ready', error: null })
  const chunks = await db.rows<{ content: string }>(
    'select content from public.chunks where document_id = $1',
    [id],
  )
  expect(chunks.length).toBeGreaterThan(0)
  expect(chunks.every((c) => !c.content.startsWith('stale'))).toBe(true)
  expect((await traces(bytes)).rows).toHaveLength(1)
  expect(await objectTotal()).toBe(objects)
}

describe('the importer resumes failed and interrupted documents', () => {
  it('a failed document of the same bytes is resumed under its id, with its stored original', async () => {
    const bytes = textFile('Beekeeping ledger for the spring swarm season', 400)
    const id = await failedDocument(bytes, 'bees.txt')
    const objects = await objectTotal()
    const totals = await importFile('bees.txt', bytes)
    expect(totals).toMatchObject({ ready: 1, duplicates: [], failures: [] })
    expect(await db.document(id)).toMatchObject({ status: 'ready', error: null })
    expect((await db.document(id))!.chunk_count).toBe(await db.chunkCount(id))
    expect(await db.textCount(id)).toBe(1)
    const { rows } = await traces(bytes)
    expect(rows).toEqual([expect.objectContaining({ id, status: 'ready' })])
    // The stored original served: no second object.
    expect(await objectTotal()).toBe(objects)
    // And now it is a duplicate, as any ready document is.
    expect(await importFile('bees-again.txt', bytes)).toMatchObject({
      ready: 0,
      duplicates: ['bees-again.txt'],
    })
  })

  it('an import whose heartbeat stopped is resumed, reaped or not, with its partial chunks gone', async () => {
    const bytes = textFile('Lantern festival rota and candle budget', 400)
    const id = await failedDocument(bytes, 'lanterns.txt')
    const crashed = (seconds: number) => stallImport(stack, id, seconds)
    // Beating 30 s ago: to the importer it is still someone's live import.
    await crashed(30)
    expect(await importFile('lanterns.txt', bytes)).toMatchObject({
      ready: 0,
      duplicates: ['lanterns.txt'],
    })
    // Silent for 90 s (the library's Interrupted), not yet reaped: resumed under its id.
    await crashed(90)
    const objects = await objectTotal()
    expect(await importFile('lanterns.txt', bytes)).toMatchObject({ ready: 1, failures: [] })
    await expectResumed(id, bytes, objects)

    // Reaped (failed by reap_interrupted_documents) first: resumed just the same.
    await crashed(600)
    const reaped = await adminClient(stack).rpc('reap_interrupted_documents')
    expect(reaped.data).toBe(1)
    expect(await importFile('lanterns.txt', bytes)).toMatchObject({ ready: 1, failures: [] })
    await expectResumed(id, bytes, objects)
  })

  it('an original that is missing or holds other bytes is written again at the same path', async () => {
    const missing = textFile('Canal lock maintenance schedule', 300)
    const differs = textFile('Vineyard frost watch roster', 300)
    const missingId = await failedDocument(missing, 'canal.txt')
    const differsId = await failedDocument(differs, 'vineyard.txt')
    const bucket = editor().storage.from(DOCUMENTS_BUCKET)
    const missingPath = (await db.document(missingId))!.storage_path as string
    const differsPath = (await db.document(differsId))!.storage_path as string
    expect((await bucket.remove([missingPath])).error).toBeNull()
    const other = await bucket.upload(differsPath, textFile('Unrelated bytes', 10), {
      upsert: true,
    })
    expect(other.error).toBeNull()

    expect(await importFile('canal.txt', missing)).toMatchObject({ ready: 1 })
    expect(await importFile('vineyard.txt', differs)).toMatchObject({ ready: 1 })
    for (const [id, bytes] of [
      [missingId, missing],
      [differsId, differs],
    ] as const) {
      expect(await db.document(id)).toMatchObject({ status: 'ready' })
      const { rows, objects } = await traces(bytes)
      expect(rows).toHaveLength(1)
      expect(objects).toHaveLength(1)
      const stored = await bucket.download(rows[0]!.storage_path)
      expect(await sha256Hex(new Uint8Array(await stored.data!.arrayBuffer()))).toBe(
        await sha256Hex(bytes),
      )
    }
  })

  it('two copies of the same bytes in one folder resume the document once', async () => {
    const bytes = textFile('Telescope calibration nights', 300)
    const id = await failedDocument(bytes, 'telescope.txt')
    const folder = mkdtempSync(join(tmpdir(), 'sourcebook-resume-'))
    folders.push(folder)
    writeFileSync(join(folder, 'telescope.txt'), bytes)
    writeFileSync(join(folder, 'telescope-copy.txt'), bytes)
    const { files } = await walk(folder)
    const totals = await runImport(editor(), {
      workspaceId,
      files,
      process: processFile,
      concurrency: 2,
    })
    expect(totals).toMatchObject({ ready: 1, failures: [] })
    expect(totals.duplicates).toHaveLength(1)
    expect(await db.document(id)).toMatchObject({ status: 'ready' })
    expect((await traces(bytes)).rows).toHaveLength(1)
  })

  it('a resume that fails again leaves the same failed row and object, nothing new', async () => {
    // A PDF by its signature, unreadable past it: refused by no sniffing, failed by extraction.
    const broken = new TextEncoder().encode('%PDF-1.7\n' + 'garbage '.repeat(200))
    const first = await importFile('broken.pdf', broken)
    expect(first.failures).toHaveLength(1)
    const before = await traces(broken)
    expect(before.rows).toEqual([expect.objectContaining({ status: 'failed' })])
    const objects = await objectTotal()

    const again = await importFile('broken.pdf', broken)
    expect(again).toMatchObject({ ready: 0, duplicates: [] })
    expect(again.failures).toHaveLength(1)
    const after = await traces(broken)
    expect(after.rows).toEqual([
      expect.objectContaining({ id: before.rows[0]!.id, status: 'failed' }),
    ])
    expect(after.objects).toHaveLength(1)
    expect(await objectTotal()).toBe(objects)
    expect(await db.chunkCount(before.rows[0]!.id)).toBe(0)
  })
})
