import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { deleteDocument } from '../../packages/core/src/ingest/delete-document.ts'
import { ingestFile } from '../../packages/core/src/ingest/ingest-file.ts'
import { processFile } from '../../packages/core/src/ingest/process-file.ts'
import type { IngestProgress } from '../../packages/core/src/ingest/types.ts'
import { inspect, readShared, textFile } from './ingest-helpers.ts'
import { clientFor, startStack } from './stack.ts'
import { createPeople, createWorld, type People } from './world.ts'

const stack = await startStack()
afterAll(() => stack.stop())

let people: People
let workspaceId: string
beforeAll(async () => {
  people = await createPeople(stack)
  workspaceId = (await createWorld(stack, people)).workspaceId
})

const pdfName = 'AMCOR_2022_8K_dated-2022-07-01.pdf'
const pdf = readShared(`financebench-pdfs/${pdfName}`)
const docx = readShared('docling-testdata/docx/sources/word_sample.docx')

const editor = () => clientFor(stack, people.editor)
const { rows, chunkCount, textCount, objectCount } = inspect(stack)

describe('ingestFile', () => {
  it('ingests a PDF: ready with its pages, chunks with pages, the original in Storage, BM25 finds it', async () => {
    const stages: IngestProgress[] = []
    const result = await ingestFile(
      editor(),
      { workspaceId, bytes: pdf, fileName: pdfName, mimeType: 'application/pdf' },
      { onProgress: (p) => stages.push(p) },
    )
    expect(result).toMatchObject({ status: 'ready', pageCount: 9 })
    if (result.status !== 'ready') return
    expect(stages.map((p) => p.stage)).toEqual(
      expect.arrayContaining(['uploading', 'extracting', 'chunking', 'indexing', 'ready']),
    )
    const progress = stages.map((p) => p.progress)
    expect(progress).toEqual([...progress].sort((a, b) => a - b))

    const { data: doc } = await editor()
      .from('documents')
      .select('*')
      .eq('id', result.documentId)
      .single()
    expect(doc).toMatchObject({
      status: 'ready',
      stage: 'ready',
      progress: 1,
      error: null,
      page_count: 9,
      chunk_count: result.chunkCount,
      size_bytes: pdf.length,
      storage_path: `${workspaceId}/${result.documentId}/${pdfName}`,
    })
    const { data: stored } = await editor()
      .from('document_texts')
      .select('text')
      .eq('document_id', result.documentId)
      .single()
    const text: string = stored!.text
    expect(text.length).toBeGreaterThan(1000)

    const { data: chunks } = await editor()
      .from('chunks')
      .select('ordinal, content, page_start, page_end, char_start, char_end, token_count')
      .eq('document_id', result.documentId)
      .order('ordinal')
    expect(chunks).toHaveLength(result.chunkCount)
    for (const chunk of chunks!) {
      expect(chunk.page_start).toBeGreaterThanOrEqual(1)
      expect(chunk.page_end).toBeLessThanOrEqual(9)
      expect(text.slice(chunk.char_start, chunk.char_end)).toBe(chunk.content)
      expect(chunk.token_count).toBeGreaterThan(0)
    }
    expect(chunks!.at(-1)!.page_end).toBe(9)

    const download = await editor().storage.from('documents').download(doc.storage_path)
    expect(new Uint8Array(await download.data!.arrayBuffer())).toEqual(pdf)

    // A phrase from the middle of a chunk on a later page is found on that page.
    const target = chunks!.find((c) => c.page_start >= 3)!
    const words = target.content.split(/\s+/).filter((w: string) => /^[a-z]{5,}$/i.test(w))
    const phrase = words.slice(0, 6).join(' ')
    const { data: hits, error } = await editor().rpc('search_chunks', {
      workspace_id: workspaceId,
      query: phrase,
      match_count: 20,
    })
    expect(error).toBeNull()
    expect(hits.map((h: { ordinal: number }) => h.ordinal)).toContain(target.ordinal)
  })

  it('ingests a DOCX with heading paths', async () => {
    const result = await ingestFile(editor(), {
      workspaceId,
      bytes: docx,
      fileName: 'sub/folder/word sample?.docx',
    })
    expect(result).toMatchObject({ status: 'ready', pageCount: 1 })
    if (result.status !== 'ready') return
    const [doc] = await rows<{ title: string; file_name: string; storage_path: string }>(
      'select title, file_name, storage_path from public.documents where id = $1',
      [result.documentId],
    )
    expect(doc).toEqual({
      title: 'Word Sample?',
      file_name: 'word sample?.docx',
      storage_path: `${workspaceId}/${result.documentId}/word sample_.docx`,
    })
    const { data: chunks } = await editor()
      .from('chunks')
      .select('heading_path, content')
      .eq('document_id', result.documentId)
    expect(chunks!.some((c) => c.heading_path.includes('Swimming in the lake'))).toBe(true)
    const { data: hits } = await editor().rpc('search_chunks', {
      workspace_id: workspaceId,
      query: 'duckling sunglasses',
    })
    expect(hits.map((h: { document_id: string }) => h.document_id)).toContain(result.documentId)
  })

  it('reports the same bytes again as a duplicate and stores nothing more', async () => {
    const again = await ingestFile(editor(), { workspaceId, bytes: pdf, fileName: 'copy.pdf' })
    expect(again).toMatchObject({ status: 'duplicate', title: 'Amcor 2022 8K Dated 2022 07 01' })
    const same = await rows(
      'select 1 from public.documents where workspace_id = $1 and size_bytes = $2',
      [workspaceId, pdf.length],
    )
    expect(same).toHaveLength(1)
  })

  it('marks unreadable files failed with their reason and no chunks; the original stays', async () => {
    const cases = [
      {
        fileName: 'half.pdf',
        bytes: pdf.subarray(0, pdf.length >> 1),
        error: /truncated/,
      },
      {
        fileName: 'bad.txt',
        mimeType: 'text/plain; charset=utf-8',
        bytes: new Uint8Array([0x48, 0x69, 0x20, 0xc3, 0x28, 0x0a]),
        error: /not valid UTF-8/,
      },
    ]
    for (const { fileName, bytes, error, mimeType } of cases) {
      const result = await ingestFile(editor(), { workspaceId, bytes, fileName, mimeType })
      expect(result).toMatchObject({ status: 'failed', error: expect.stringMatching(error) })
      if (result.status !== 'failed') continue
      // The row keeps the stage it failed in.
      const [doc] = await rows<{
        status: string
        stage: string
        error: string
        chunk_count: number
      }>('select status, stage, error, chunk_count from public.documents where id = $1', [
        result.documentId,
      ])
      expect(doc).toEqual({
        status: 'failed',
        stage: 'extracting',
        error: result.error,
        chunk_count: 0,
      })
      expect(await chunkCount(result.documentId)).toBe(0)
      expect(await objectCount(`${workspaceId}/${result.documentId}/`)).toBe(1)
    }
  })

  it('a viewer cannot ingest, and nothing is left behind', async () => {
    const before = await rows('select 1 from public.documents', [])
    const objects = await objectCount('')
    const result = await ingestFile(clientFor(stack, people.viewer), {
      workspaceId,
      bytes: new TextEncoder().encode('a viewer wrote this'),
      fileName: 'viewer.txt',
    })
    expect(result).toEqual({
      status: 'refused',
      error: 'Only editors and owners can add documents to this workspace.',
    })
    expect(await rows('select 1 from public.documents', [])).toHaveLength(before.length)
    expect(await objectCount('')).toBe(objects)
  })

  it('refuses files over the size limit, or already cancelled, before writing anything', async () => {
    const before = await rows('select 1 from public.documents', [])
    const result = await ingestFile(
      editor(),
      { workspaceId, bytes: docx, fileName: 'big.docx' },
      { maxBytes: 1024 },
    )
    expect(result).toEqual({ status: 'refused', error: '"big.docx" is larger than 1 KB.' })
    const aborted = await ingestFile(
      editor(),
      { workspaceId, bytes: docx, fileName: 'late.docx' },
      { signal: AbortSignal.abort() },
    )
    expect(aborted).toEqual({ status: 'refused', error: 'cancelled' })
    expect(await rows('select 1 from public.documents', [])).toHaveLength(before.length)
  })

  it('cancellation mid-indexing leaves the document failed "cancelled" without chunks', async () => {
    const controller = new AbortController()
    const result = await ingestFile(
      editor(),
      {
        workspaceId,
        bytes: readShared('financebench-pdfs/JOHNSON_JOHNSON_2023Q2_EARNINGS.pdf'),
        fileName: 'jj.pdf',
      },
      {
        signal: controller.signal,
        batchSize: 5,
        onProgress: (p) => {
          if (p.stage === 'indexing' && p.progress > 0.7) controller.abort()
        },
      },
    )
    expect(result).toMatchObject({ status: 'failed', error: 'cancelled' })
    if (result.status !== 'failed') return
    const [doc] = await rows<{ status: string; stage: string; error: string }>(
      'select status, stage, error from public.documents where id = $1',
      [result.documentId],
    )
    expect(doc).toEqual({ status: 'failed', stage: 'indexing', error: 'cancelled' })
    expect(await chunkCount(result.documentId)).toBe(0)
  })

  it('uses the given uploader for the original; its failure fails the document with the reason', async () => {
    const calls: { path: string; contentType: string }[] = []
    const bytes = new TextEncoder().encode('Uploaded my own way. '.repeat(50))
    const result = await ingestFile(
      editor(),
      { workspaceId, bytes, fileName: 'own.txt', mimeType: 'text/plain' },
      {
        upload: async (path, body, contentType) => {
          calls.push({ path, contentType })
          const { error } = await editor().storage.from('documents').upload(path, body)
          if (error) throw error
        },
      },
    )
    expect(result).toMatchObject({ status: 'ready' })
    if (result.status !== 'ready') return
    expect(calls).toEqual([
      { path: `${workspaceId}/${result.documentId}/own.txt`, contentType: 'text/plain' },
    ])

    const refused = await ingestFile(
      editor(),
      {
        workspaceId,
        bytes: new TextEncoder().encode('Never stored. '.repeat(50)),
        fileName: 'x.txt',
      },
      {
        upload: () => Promise.reject(new Error('the connection dropped')),
      },
    )
    expect(refused).toMatchObject({
      status: 'failed',
      error: '"x.txt" could not be imported: the connection dropped',
    })
    if (refused.status !== 'failed') return
    const [doc] = await rows<{ status: string; stage: string }>(
      'select status, stage from public.documents where id = $1',
      [refused.documentId],
    )
    expect(doc).toEqual({ status: 'failed', stage: 'uploading' })
    expect(await chunkCount(refused.documentId)).toBe(0)
  })

  it('deleteDocument removes the row, its chunks and its original', async () => {
    const result = await ingestFile(editor(), {
      workspaceId,
      bytes: new TextEncoder().encode('Delete me. '.repeat(500)),
      fileName: 'delete-me.txt',
    })
    if (result.status !== 'ready') throw new Error(JSON.stringify(result))
    expect(await chunkCount(result.documentId)).toBeGreaterThan(0)
    await deleteDocument(editor(), result.documentId)
    expect(await rows('select 1 from public.documents where id = $1', [result.documentId])).toEqual(
      [],
    )
    expect(await chunkCount(result.documentId)).toBe(0)
    expect(await textCount(result.documentId)).toBe(0)
    expect(await objectCount(`${workspaceId}/${result.documentId}/`)).toBe(0)
  })
})

describe('the heartbeat of a long step', () => {
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
  const row = async (id: string) =>
    (
      await rows<{ status: string; stage: string; progress: number; updated_at: Date }>(
        'select status, stage, progress, updated_at from public.documents where id = $1',
        [id],
      )
    )[0]!
  /** How many different updated_at the row shows over ~`ms`, sampled every 50 ms. */
  const touches = async (id: string, ms: number) => {
    const seen = new Set<number>()
    for (let waited = 0; waited < ms; waited += 50) {
      seen.add((await row(id)).updated_at.getTime())
      await sleep(50)
    }
    return seen.size
  }

  it('rewrites the row while the upload and the extraction report nothing, and stops with them', async () => {
    const seen: Record<string, number> = {}
    let documentId = ''
    const result = await ingestFile(
      editor(),
      { workspaceId, bytes: textFile('A slow heartbeat file'), fileName: 'slow.txt' },
      {
        heartbeatMs: 100,
        upload: async (path, body) => {
          documentId = path.split('/')[1]!
          seen.uploading = await touches(documentId, 500)
          const { error } = await editor().storage.from('documents').upload(path, body)
          if (error) throw error
        },
        process: async (input) => {
          seen.extracting = await touches(documentId, 500)
          expect(await row(documentId)).toMatchObject({ stage: 'extracting', progress: 0.1 })
          return processFile(input)
        },
      },
    )
    expect(result).toMatchObject({ status: 'ready' })
    expect(seen.uploading).toBeGreaterThanOrEqual(3)
    expect(seen.extracting).toBeGreaterThanOrEqual(3)
    const done = await row(documentId)
    await sleep(300)
    expect(done.status).toBe('ready')
    expect(await row(documentId)).toEqual(done)
  })

  it('leaves a failed document alone once the step failed', async () => {
    const result = await ingestFile(
      editor(),
      { workspaceId, bytes: textFile('A heartbeat that fails'), fileName: 'fails.txt' },
      {
        heartbeatMs: 50,
        process: async () => {
          await sleep(200)
          throw new Error('the extractor gave up')
        },
      },
    )
    expect(result).toMatchObject({ status: 'failed' })
    if (result.status !== 'failed') return
    const failed = await row(result.documentId)
    expect(failed).toMatchObject({ status: 'failed', progress: 0 })
    await sleep(200)
    expect(await row(result.documentId)).toEqual(failed)
  })
})
