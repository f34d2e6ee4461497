import { join } from 'node:path'
import type { SupabaseClient } from '@supabase/supabase-js'
import type { Browser, Locator, Page, Request } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ingestFile } from '../../packages/core/src/ingest/ingest-file.ts'
import { signIn } from './support/app.ts'
import { seriousViolations } from './support/axe.ts'
import { sharedWorkspace, signedUpClient } from './support/accounts.ts'
import { launchBrowser, newPage, screenshot } from './support/browser.ts'
import { repoRoot } from './support/paths.ts'
import { startStack } from './support/stack.ts'

// Test data lives beside the checkout, never in it (see ../shared/data/README.md).
const data = join(repoRoot, '../shared/data/docling-testdata')
const pdfFile = `${data}/pdf/sources/multi_page.pdf`
const docxFile = `${data}/docx/sources/word_sample.docx`
const newVersionFile = `${data}/pdf/sources/2305.03393v1-pg9.pdf`

/** Whether the element is on screen now (scrolled to), not merely rendered. */
function inViewport(locator: Locator) {
  return locator.evaluate((element) => {
    const box = element.getBoundingClientRect()
    return box.bottom > 0 && box.top < window.innerHeight
  })
}

// Issue #5's scenario: an editor uploads a PDF and a Word file through the library, a viewer
// watches them become ready live, opens each at a highlighted passage, and sees the one the
// editor deletes leave their library.
describe('documents from upload to deletion', () => {
  let stack: Awaited<ReturnType<typeof startStack>>
  let browser: Browser
  let editor: Page
  let viewer: Page
  let editorDb: SupabaseClient
  let library = ''
  let workspaceId = ''

  async function signInAt(page: Page, email: string) {
    await page.goto(`${stack.url}/sign-in`)
    await signIn(page, email)
    await page.waitForURL((url) => url.pathname !== '/sign-in')
  }

  /** The id of a ready document and of its chunk at `ordinal`, read from the database. */
  async function chunkOf(fileName: string, ordinal: number) {
    const { data: chunk, error } = await editorDb
      .from('chunks')
      .select('id, document_id, char_start, char_end, document:documents!inner(file_name)')
      .eq('document.file_name', fileName)
      .eq('ordinal', ordinal)
      .single()
    if (error) throw error
    return chunk
  }

  beforeAll(async () => {
    stack = await startStack()
    editorDb = await signedUpClient(stack.url, 'Edie Editor', 'edie@example.com')
    const viewerDb = await signedUpClient(stack.url, 'Vic Viewer', 'vic@example.com')
    workspaceId = await sharedWorkspace(editorDb, viewerDb, 'Duck studies', 'viewer')
    library = `${stack.url}/w/${workspaceId}/library`
    browser = await launchBrowser()
    editor = await newPage(browser)
    viewer = await newPage(browser)
    await signInAt(editor, 'edie@example.com')
    await signInAt(viewer, 'vic@example.com')
  })

  afterAll(async () => {
    await browser?.close()
    await stack?.stop()
  })

  it('uploads a PDF and a Word file, and a viewer sees them reach ready live', async () => {
    await viewer.goto(library)
    await viewer.getByText('No documents yet').waitFor()
    await editor.goto(library)
    await editor.getByLabel('Upload files').setInputFiles([pdfFile, docxFile])

    for (const name of ['multi_page.pdf', 'word_sample.docx']) {
      const row = viewer.getByRole('row', { name: new RegExp(name.replace('.', '\\.')) })
      await row.waitFor({ timeout: 60_000 })
      await row.getByText('Ready').waitFor({ timeout: 90_000 })
    }
    // Titled readably, the file name under the title.
    const pdfRow = viewer.getByRole('row', { name: /multi_page\.pdf/ })
    await pdfRow.getByRole('link', { name: 'Multi Page' }).waitFor()
    await pdfRow.getByText(/^multi_page\.pdf/).waitFor()
    await screenshot(viewer, 'library-documents')
    expect(await seriousViolations(viewer)).toEqual([])
  })

  it('sends an original over 6 MB by TUS, in 6 MB chunks, and indexes it', async () => {
    const lines = Array.from(
      { length: 140_000 },
      (_, i) => `Lap ${i}: the duck swims ${i % 97} lengths of the lake.\n`,
    )
    const buffer = Buffer.from(lines.join(''))
    expect(buffer.length).toBeGreaterThan(6 * 2 ** 20)
    const tusRequests: string[] = []
    editor.context().on('request', (request) => {
      if (request.url().includes('/storage/v1/upload/resumable')) tusRequests.push(request.method())
    })
    await editor.getByLabel('Upload files').setInputFiles({
      name: 'laps.txt',
      mimeType: 'text/plain',
      buffer,
    })
    const row = editor.getByRole('row', { name: /laps\.txt/ })
    await row.getByText('Ready').waitFor({ timeout: 180_000 })

    // Created, then two PATCHes: a full 6 MB chunk and the rest.
    expect(tusRequests.filter((method) => method === 'POST')).toHaveLength(1)
    expect(tusRequests.filter((method) => method === 'PATCH')).toHaveLength(2)
    const { data: document, error } = await editorDb
      .from('documents')
      .select('id, storage_path, size_bytes, chunk_count')
      .eq('file_name', 'laps.txt')
      .single()
    if (error) throw error
    expect(document.size_bytes).toBe(buffer.length)
    expect(document.chunk_count).toBeGreaterThan(1000)
    const stored = await editorDb.storage.from('documents').download(document.storage_path!)
    expect(stored.data?.size).toBe(buffer.length)

    // Out of the way of the scenarios below.
    await editorDb.storage.from('documents').remove([document.storage_path!])
    await editorDb.from('documents').delete().eq('id', document.id)
  })

  it('resumes an upload cut by a reload from the server’s offset, once the file is chosen again', async () => {
    // 20 MB in four TUS chunks. A PDF only by its header: once stored, it fails at extraction
    // at once, which keeps this test about the upload.
    const buffer = Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(20 * 2 ** 20, 0x20)])
    const sent: { method: string; offset: number }[] = []
    const watch = (request: Request) => {
      if (!request.url().includes('/storage/v1/upload/resumable')) return
      sent.push({ method: request.method(), offset: Number(request.headers()['upload-offset']) })
    }
    editor.context().on('requestfinished', watch)
    await editor.goto(library)
    // Handing these 20 MB to the browser over the DevTools protocol ran past the 15 s default
    // in two full runs on Postgres on a loaded machine; the file alone passed.
    await editor
      .getByLabel('Upload files')
      .setInputFiles(
        { name: 'swans.pdf', mimeType: 'application/pdf', buffer },
        { timeout: 60_000 },
      )
    // The upload exists on the server, with its first chunk: the page goes away mid-upload.
    // localbase's TUS creation stores no bytes (it answers offset 0), so the first chunk is
    // the first PATCH: a reload right after the POST could cut that one short of 6 MB (seen
    // on Postgres: the resume began at 6,191,819), so the reload waits for it.
    await expect.poll(() => sent.some((r) => r.method === 'PATCH'), { timeout: 60_000 }).toBe(true)
    editor.once('dialog', (dialog) => void dialog.accept())
    await editor.reload()
    const before = sent.length

    // Once the row counts as interrupted, Resume asks for the file and the upload continues.
    const row = editor.getByRole('row', { name: /swans\.pdf/ })
    const retry = row.getByRole('button', { name: /^Resume/ })
    await retry.waitFor({ timeout: 120_000 })
    const chooser = editor.waitForEvent('filechooser')
    await retry.click()
    await editor
      .getByText('Choose “swans.pdf” again: its upload continues where it stopped.')
      .waitFor()
    await screenshot(editor, 'library-resume-upload', { fullPage: false })
    await (await chooser).setFiles({ name: 'swans.pdf', mimeType: 'application/pdf', buffer })
    await row.getByText('Failed', { exact: true }).waitFor({ timeout: 60_000 })
    editor.context().off('requestfinished', watch)

    // No new upload: the server's offset asked for, then only the bytes it did not have (the
    // first chunk was stored before the reload).
    const resumed = sent.slice(before)
    expect(resumed.filter((r) => r.method === 'POST')).toEqual([])
    expect(resumed.some((r) => r.method === 'HEAD')).toBe(true)
    const patches = resumed.filter((r) => r.method === 'PATCH')
    expect(patches.length).toBeGreaterThan(0)
    expect(patches[0]!.offset).toBeGreaterThanOrEqual(6 * 2 ** 20)
    const { data: document, error } = await editorDb
      .from('documents')
      .select('id, storage_path')
      .eq('file_name', 'swans.pdf')
      .single()
    if (error) throw error
    const stored = await editorDb.storage.from('documents').download(document.storage_path!)
    expect(stored.data?.size).toBe(buffer.length)
    expect(
      await editor.evaluate(() =>
        Object.keys(localStorage).filter((k) => k.startsWith('sourcebook.upload.')),
      ),
    ).toEqual([])
    await editorDb.storage.from('documents').remove([document.storage_path!])
    await editorDb.from('documents').delete().eq('id', document.id)
  }, 300_000)

  it('opens the Word document at a highlighted passage', async () => {
    const chunk = await chunkOf('word_sample.docx', 2)
    await viewer.goto(
      `${library.replace(/library$/, 'documents')}/${chunk.document_id}?chunk=${chunk.id}`,
    )
    await viewer.getByRole('heading', { name: 'Word Sample' }).waitFor()
    await viewer.getByText('Highlighted passage on page 1').waitFor()
    const marks = viewer.locator('mark')
    await marks.first().waitFor()
    const marked = (await marks.allTextContents()).join('')
    expect(marked).toContain('To get started with swimming')
    expect(marked).not.toContain('Summer activities')
    await expect.poll(() => inViewport(marks.first())).toBe(true)
    // Formatted, not raw Markdown: the list is a list.
    expect(await viewer.locator('main li').count()).toBeGreaterThan(3)
    expect(await viewer.getByRole('button', { name: 'Delete' }).count()).toBe(0)
    await screenshot(viewer, 'document-text-highlight', { fullPage: false })
    expect(await seriousViolations(viewer)).toEqual([])
  })

  it('opens the PDF at a passage on its pages, highlighted in the text layer', async () => {
    const chunk = await chunkOf('multi_page.pdf', 2)
    await viewer.goto(
      `${library.replace(/library$/, 'documents')}/${chunk.document_id}?chunk=${chunk.id}`,
    )
    await viewer.getByText('Highlighted passage on pages 2–3').waitFor()
    const highlighted = viewer.locator('#pdf-page-2 .pdf-passage')
    await highlighted.first().waitFor({ timeout: 30_000 })
    expect(await highlighted.count()).toBeGreaterThan(3)
    await expect.poll(() => inViewport(highlighted.first())).toBe(true)
    expect(await viewer.locator('#pdf-page-2 canvas').count()).toBe(1)
    await screenshot(viewer, 'document-pdf-highlight', { fullPage: false })
    expect(await seriousViolations(viewer)).toEqual([])

    // A passage further in: its page is drawn and scrolled to, the far first page is not drawn.
    const later = await chunkOf('multi_page.pdf', 4)
    await viewer.goto(
      `${library.replace(/library$/, 'documents')}/${later.document_id}?chunk=${later.id}`,
    )
    const laterMarks = viewer.locator('#pdf-page-4 .pdf-passage')
    await laterMarks.first().waitFor({ timeout: 30_000 })
    await expect.poll(() => inViewport(laterMarks.first())).toBe(true)
    expect(await viewer.locator('#pdf-page-1 canvas').count()).toBe(0)

    const download = viewer.waitForEvent('download')
    await viewer.getByRole('button', { name: 'Download' }).click()
    expect((await download).suggestedFilename()).toBe('multi_page.pdf')

    // The same passage in the PDF's extracted text, marked at its exact offsets.
    await viewer.getByRole('group', { name: 'View' }).getByRole('button', { name: 'Text' }).click()
    const mark = viewer.locator('mark')
    await mark.waitFor()
    const { data: stored } = await editorDb
      .from('document_texts')
      .select('text')
      .eq('document_id', later.document_id)
      .single()
    expect(await mark.textContent()).toBe(stored?.text.slice(later.char_start, later.char_end))
    await expect.poll(() => inViewport(mark)).toBe(true)
  })

  it('replaces the PDF with a new version, which the editor follows', async () => {
    const chunk = await chunkOf('multi_page.pdf', 0)
    const oldUrl = `${library.replace(/library$/, 'documents')}/${chunk.document_id}`
    await viewer.goto(oldUrl)
    await viewer.getByRole('heading', { name: 'Multi Page' }).waitFor()
    await editor.goto(oldUrl)
    await editor.getByLabel('New version of Multi Page').setInputFiles(newVersionFile)
    await editor.waitForURL((url) => url.href !== oldUrl, { timeout: 60_000 })
    await editor.getByRole('heading', { name: 'Multi Page' }).waitFor()
    const details = editor.getByRole('region', { name: 'Document details' })
    await details.getByText('Version').waitFor()
    expect(await details.textContent()).toMatch(/Pages\s*1(?!\d).*Version\s*2/)
    // The old version is gone: the viewer who had it open is told so, live.
    await viewer.getByText('Document not found').waitFor()
  })

  it('reads well in the dark and on a phone', async () => {
    const chunk = await chunkOf('word_sample.docx', 2)
    const href = `${library.replace(/library$/, 'documents')}/${chunk.document_id}?chunk=${chunk.id}`
    // A period as an editor sets one (or import detects): the header shows it in both themes.
    const period = await editorDb
      .from('documents')
      .update({ periods: ['2019', 'December 31, 2019'] })
      .eq('id', chunk.document_id)
    expect(period.error).toBeNull()
    await viewer.emulateMedia({ colorScheme: 'dark' })
    await viewer.goto(href)
    await viewer.locator('mark').first().waitFor()
    await viewer.getByText('2019, December 31, 2019').waitFor()
    expect(await viewer.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(
      true,
    )
    await screenshot(viewer, 'document-text-dark', { fullPage: false })
    expect(await seriousViolations(viewer)).toEqual([])
    await viewer.emulateMedia({ colorScheme: 'light' })

    const phone = await browser.newContext({
      viewport: { width: 390, height: 844 },
      storageState: await editor.context().storageState(),
    })
    const page = await phone.newPage()
    await page.goto(href)
    await page.locator('mark').first().waitFor()
    // Below 640 px Rename and Delete sit in the More actions menu, keeping the actions on one row.
    await page.getByRole('button', { name: 'More actions' }).waitFor()
    expect(await page.getByRole('button', { name: 'Rename' }).isVisible()).toBe(false)
    await screenshot(page, 'phone-document', { fullPage: false })
    await page.evaluate(() => window.scrollTo(0, 0))
    await screenshot(page, 'phone-document-top', { fullPage: false })
    expect(await seriousViolations(page)).toEqual([])
    // The editor's Details dialog, from the More actions menu, starts from the periods set.
    await page.getByRole('button', { name: 'More actions' }).click()
    await page.getByRole('menuitem', { name: 'Details' }).click()
    const dialog = page.getByRole('dialog', { name: 'Edit details' })
    expect(await dialog.getByLabel('Period').inputValue()).toBe('2019, December 31, 2019')
    await dialog.getByLabel('Names').waitFor()
    await screenshot(page, 'phone-edit-details', { fullPage: false })
    expect(await seriousViolations(page)).toEqual([])
    await page.keyboard.press('Escape')
    await expect
      .poll(() =>
        page
          .getByRole('button', { name: 'More actions' })
          .evaluate((b) => b === document.activeElement),
      )
      .toBe(true)
    await phone.close()
  })

  it('renames a document in the library, which the viewer sees at once', async () => {
    await viewer.goto(library)
    await editor.goto(library)
    await editor
      .getByRole('row', { name: /word_sample\.docx/ })
      .getByRole('button', { name: 'Actions for Word Sample' })
      .click()
    await editor.getByRole('menuitem', { name: 'Rename' }).click()
    const dialog = editor.getByRole('dialog', { name: 'Rename document' })
    expect(await dialog.textContent()).toContain('The file keeps its name, “word_sample.docx”.')
    await dialog.getByLabel('Title').fill('Swimming lessons')
    await screenshot(editor, 'library-rename', { fullPage: false })
    expect(await seriousViolations(editor)).toEqual([])
    await dialog.getByRole('button', { name: 'Save' }).click()
    const row = viewer.getByRole('row', { name: /word_sample\.docx/ })
    await row.getByRole('link', { name: 'Swimming lessons' }).waitFor()
  })

  it('deletes a document, which leaves the viewer’s library at once', async () => {
    await viewer.goto(library)
    const row = viewer.getByRole('row', { name: /word_sample\.docx/ })
    await row.waitFor()

    const chunk = await chunkOf('word_sample.docx', 0)
    await editor.goto(`${library.replace(/library$/, 'documents')}/${chunk.document_id}`)
    await editor.getByRole('button', { name: 'Delete' }).click()
    await editor.getByRole('alertdialog').getByRole('button', { name: 'Delete document' }).click()
    await editor.waitForURL(library)

    await row.waitFor({ state: 'detached' })
    // The PDF's new version kept its title, with the new file's name.
    await viewer.getByRole('link', { name: 'Multi Page' }).waitFor()
    const { data } = await editorDb.from('documents').select('title, file_name')
    expect(data).toEqual([{ title: 'Multi Page', file_name: '2305.03393v1-pg9.pdf' }])
  })

  it('retries a failed document when its file is uploaded again, and says so', async () => {
    // Cut while indexing, as an interrupted upload is: failed, its original stored.
    const text = 'The heron stands still in the reeds until a fish passes. '.repeat(300)
    const controller = new AbortController()
    const cut = await ingestFile(
      editorDb,
      { workspaceId, bytes: new TextEncoder().encode(text), fileName: 'heron.txt' },
      {
        signal: controller.signal,
        batchSize: 1,
        onProgress: (p) => p.stage === 'indexing' && p.progress > 0.5 && controller.abort(),
      },
    )
    if (cut.status !== 'failed') throw new Error(JSON.stringify(cut))
    await editor.goto(library)
    const rows = editor.getByRole('row', { name: /heron\.txt/ })
    await rows.getByText('Failed', { exact: true }).waitFor()

    await editor.getByLabel('Upload files').setInputFiles({
      name: 'heron.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from(text),
    })
    const uploads = editor.getByRole('region', { name: 'Uploads' })
    await uploads.getByText('Retried the earlier failed upload: ready').waitFor({ timeout: 60_000 })
    for (const scheme of ['light', 'dark'] as const) {
      await editor.emulateMedia({ colorScheme: scheme })
      await screenshot(editor, `library-upload-retried-${scheme}`, { fullPage: false })
    }
    await editor.emulateMedia({ colorScheme: 'light' })
    await rows.getByText('Ready', { exact: true }).waitFor()
    expect(await rows.count()).toBe(1)
    const heron = await editorDb.from('documents').select('id, status').eq('file_name', 'heron.txt')
    expect(heron.data).toEqual([{ id: cut.documentId, status: 'ready' }])

    // Unreadable: failed, and failed again as the same document when uploaded again.
    const torn = {
      name: 'torn.pdf',
      mimeType: 'application/pdf',
      buffer: Buffer.from('%PDF-1.7\n' + 'torn '.repeat(99)),
    }
    await editor.getByLabel('Upload files').setInputFiles(torn)
    const tornRow = editor.getByRole('row', { name: /torn\.pdf/ })
    await tornRow.getByText('Failed', { exact: true }).waitFor({ timeout: 60_000 })
    await editor.getByLabel('Upload files').setInputFiles(torn)
    await uploads
      .getByText(/^The earlier failed upload failed again: /)
      .waitFor({ timeout: 60_000 })
    expect(await seriousViolations(editor)).toEqual([])
    await screenshot(editor, 'library-upload-failed-again', { fullPage: false })
    expect(await tornRow.count()).toBe(1)
    // Nothing stored beside the documents: each of these holds its one original.
    const documents = await editorDb.from('documents').select('id, file_name')
    const bucket = editorDb.storage.from('documents')
    const folders = (await bucket.list(workspaceId)).data?.map((o) => o.name)
    expect(folders?.every((id) => documents.data?.some((d) => d.id === id))).toBe(true)
    for (const { id } of documents.data!.filter((d) => /heron|torn/.test(d.file_name!))) {
      expect((await bucket.list(`${workspaceId}/${id}`)).data).toHaveLength(1)
    }
  })
})
