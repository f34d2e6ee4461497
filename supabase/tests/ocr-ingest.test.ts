import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { SupabaseClient } from '@supabase/supabase-js'
import { PDFDocument } from 'pdf-lib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createNodeOcr } from '../../packages/core/src/extract/ocr-node.ts'
import type { OcrPage } from '../../packages/core/src/extract/ocr.ts'
import { ingestFile } from '../../packages/core/src/ingest/ingest-file.ts'
import { processFile } from '../../packages/core/src/ingest/process-file.ts'
import type { IngestProgress } from '../../packages/core/src/ingest/types.ts'
import { buildPdf } from '../../packages/core/src/testing/build-pdf.ts'
import { scannedPdf } from '../../packages/core/src/testing/scanned-pdf.ts'
import { DEFAULT_ANON_KEY } from '../../packages/localbase/src/index.ts'
import { readShared } from './ingest-helpers.ts'
import { adminClient, clientFor, startStack } from './stack.ts'
import { type Change, until, watchChanges } from './watch-changes.ts'
import { createPeople, createWorld, type People } from './world.ts'

// OCR is slow on two busy cores (5–30 s a page): one scanned page per file here.
const SLOW = 240_000

const stack = await startStack()
const folder = mkdtempSync(join(tmpdir(), 'sourcebook-ocr-import-'))
const watchers: SupabaseClient[] = []
afterAll(async () => {
  rmSync(folder, { recursive: true, force: true })
  await Promise.all(watchers.map((client) => client.removeAllChannels()))
  await stack.stop()
})

let people: People
let workspaceId: string
let scan: Uint8Array
beforeAll(async () => {
  people = await createPeople(stack)
  workspaceId = (await createWorld(stack, people)).workspaceId
  scan = await scannedPdf(readShared('docling-testdata/pdf/sources/multi_page.pdf'), [1])
})

const editor = () => clientFor(stack, people.editor)

/** A born-digital first page, then the scanned page. */
async function mixedPdf(): Promise<Uint8Array> {
  const out = await PDFDocument.create()
  const [born] = await out.copyPages(
    await PDFDocument.load(buildPdf({ pages: ['Born digital cover page.'] })),
    [0],
  )
  const [scanned] = await out.copyPages(await PDFDocument.load(scan), [0])
  out.addPage(born!)
  out.addPage(scanned!)
  return out.save()
}

describe('scanned PDFs through supabase-js', () => {
  it(
    'a mixed PDF ends ready: OCR text searchable on its page, line boxes stored, ocr_pages set',
    { timeout: SLOW },
    async () => {
      // A viewer watches the library: the row tells them which page OCR is on.
      const changes: Change[] = []
      watchers.push(await watchChanges(stack, people.viewer, 'documents', workspaceId, changes))
      const events: IngestProgress[] = []
      const result = await ingestFile(
        editor(),
        { workspaceId, bytes: await mixedPdf(), fileName: 'scanned-history.pdf' },
        {
          process: (input, hooks) => processFile(input, hooks, { engine: createNodeOcr }),
          onProgress: (event) => events.push(event),
        },
      )
      expect(result).toMatchObject({ status: 'ready', pageCount: 2 })
      const documentId = (result as { documentId: string }).documentId
      expect(events.filter((e) => e.ocr)).toEqual([
        expect.objectContaining({ stage: 'extracting', ocr: { page: 1, pages: 1 } }),
      ])

      const { data: doc } = await clientFor(stack, people.viewer)
        .from('documents')
        .select('status, ocr_pages, page_count')
        .eq('id', documentId)
        .single()
      expect(doc).toEqual({ status: 'ready', ocr_pages: 1, page_count: 2 })
      const ours = () => changes.filter((change) => change.new.id === documentId)
      await until(() => ours().some((change) => change.new.status === 'ready'))
      expect(ours()).toContainEqual(
        expect.objectContaining({
          new: expect.objectContaining({ stage: 'extracting', ocr_page: 1, ocr_page_count: 1 }),
        }),
      )
      expect(ours().at(-1)!.new).toMatchObject({ ocr_page: null, ocr_page_count: null })

      const { data: texts } = await clientFor(stack, people.viewer)
        .from('document_texts')
        .select('text, ocr_lines')
        .eq('document_id', documentId)
        .single()
      const pages = texts!.ocr_lines as OcrPage[]
      expect(pages.map((page) => page.number)).toEqual([2])
      expect(pages[0]!.lines.length).toBeGreaterThan(10)
      expect(texts!.text).toContain(pages[0]!.lines[0]!.text)

      const found = await clientFor(stack, people.viewer).functions.invoke<{
        results: { document_id: string; page_start: number; page_end: number }[]
      }>('search', { body: { workspace_id: workspaceId, query: 'typewriter Sholes patented' } })
      expect(found.error).toBeNull()
      // The cover page is one line: the passage starts there and runs into the scanned page.
      expect(found.data!.results[0]).toMatchObject({ document_id: documentId, page_end: 2 })
    },
  )

  it('the page OCR is on is kept only while extraction runs, and must make sense', async () => {
    const { data, error } = await editor()
      .from('documents')
      .insert({ workspace_id: workspaceId, title: 'Scan underway', status: 'processing' })
      .select('id')
      .single()
    if (error) throw error
    const row = () =>
      editor().from('documents').select('ocr_page, ocr_page_count').eq('id', data.id).single()
    const set = (values: Record<string, unknown>) =>
      editor().from('documents').update(values).eq('id', data.id)
    expect((await set({ stage: 'extracting', ocr_page: 2, ocr_page_count: 3 })).error).toBeNull()
    expect((await row()).data).toEqual({ ocr_page: 2, ocr_page_count: 3 })
    for (const nonsense of [
      { ocr_page: 4, ocr_page_count: 3 },
      { ocr_page: 0, ocr_page_count: 3 },
      { ocr_page: 1, ocr_page_count: null },
    ]) {
      expect((await set(nonsense)).error).toMatchObject({ code: '23514' })
    }
    expect((await row()).data).toEqual({ ocr_page: 2, ocr_page_count: 3 })
    // Moving on (a later stage), or ending (failed, ready), clears it whoever writes the row.
    expect((await set({ stage: 'chunking' })).error).toBeNull()
    expect((await row()).data).toEqual({ ocr_page: null, ocr_page_count: null })
    await set({ stage: 'extracting', ocr_page: 1, ocr_page_count: 3 })
    expect((await set({ status: 'failed', error: 'OCR could not start' })).error).toBeNull()
    expect((await row()).data).toEqual({ ocr_page: null, ocr_page_count: null })
  })

  it('a scan without an OCR engine is refused as before', async () => {
    const result = await ingestFile(editor(), {
      workspaceId,
      bytes: scan,
      fileName: 'no-ocr.pdf',
    })
    expect(result).toMatchObject({
      status: 'failed',
      error: 'this PDF has no text layer (scanned?)',
    })
  })

  it(
    'npm run import reads a scanned PDF by OCR in its worker threads',
    { timeout: SLOW },
    async () => {
      const email = `ocr.importer.${Date.now()}@example.test`
      const password = 'import-password-1'
      const { data, error } = await adminClient(stack).auth.admin.createUser({
        email,
        password,
        email_confirm: true,
      })
      if (error) throw error
      await stack.db.pg.query(
        `insert into public.workspace_members (workspace_id, user_id, role) values ($1, $2, 'editor')`,
        [workspaceId, data.user.id],
      )
      // Another page than the other tests' scan: the same bytes would be a duplicate.
      const other = await scannedPdf(readShared('docling-testdata/pdf/sources/multi_page.pdf'), [2])
      writeFileSync(join(folder, 'scanned-report.pdf'), other)
      const script = fileURLToPath(new URL('../../scripts/import.ts', import.meta.url))
      const args = [
        '--url',
        stack.url,
        '--key',
        DEFAULT_ANON_KEY,
        '--workspace',
        workspaceId,
        folder,
      ]
      const { code, stdout } = await new Promise<{ code: number | null; stdout: string }>(
        (resolve) => {
          const child = spawn(process.execPath, [script, ...args], {
            env: { ...process.env, SOURCEBOOK_EMAIL: email, SOURCEBOOK_PASSWORD: password },
          })
          let out = ''
          child.stdout.on('data', (chunk) => (out += chunk))
          child.on('close', (exit) => resolve({ code: exit, stdout: out }))
        },
      )
      expect(stdout).toMatch(/Imported 1 of 1 files/)
      expect(code).toBe(0)
      const { rows } = await stack.db.pg.query<{ status: string; ocr_pages: number; text: string }>(
        `select d.status, d.ocr_pages, t.text from public.documents d
       join public.document_texts t on t.document_id = d.id
       where d.file_name = 'scanned-report.pdf'`,
      )
      expect(rows).toHaveLength(1)
      expect(rows[0]).toMatchObject({ status: 'ready', ocr_pages: 1 })
      expect(rows[0]!.text).toMatch(/WordPerfect/)
    },
  )
})
