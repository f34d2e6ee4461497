import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { SupabaseClient } from '@supabase/supabase-js'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { scannedPdf } from '../../packages/core/src/testing/scanned-pdf.ts'
import { signIn } from './support/app.ts'
import { seriousViolations } from './support/axe.ts'
import { sharedWorkspace, signedUpClient } from './support/accounts.ts'
import { launchBrowser, newPage, screenshot } from './support/browser.ts'
import { repoRoot } from './support/paths.ts'
import { startStack } from './support/stack.ts'

// Issue #17: a scanned PDF (pages as pictures, no text layer) uploaded through the library is
// read by OCR in the browser's ingest worker, page by page with progress, and ends Ready with
// searchable, citable text. Scans are made here: 200 dpi renders of a born-digital PDF.
const source = join(repoRoot, '../shared/data/docling-testdata/pdf/sources/multi_page.pdf')
const folder = mkdtempSync(join(tmpdir(), 'sourcebook-ocr-e2e-'))
const scanFile = join(folder, 'scanned-history.pdf')
const longScanFile = join(folder, 'long-scan.pdf')

describe('scanned PDFs', () => {
  let stack: Awaited<ReturnType<typeof startStack>>
  let browser: Browser
  let page: Page
  let db: SupabaseClient
  let workspaceUrl = ''

  beforeAll(async () => {
    const bytes = new Uint8Array(readFileSync(source))
    writeFileSync(scanFile, await scannedPdf(bytes, [1]))
    writeFileSync(longScanFile, await scannedPdf(bytes, [2, 3, 4]))
    stack = await startStack()
    db = await signedUpClient(stack.url, 'Sam Scanner', 'sam@example.com')
    // Tina, a viewer, watches the library while Sam's scans are read.
    const tina = await signedUpClient(stack.url, 'Tina Teammate', 'tina@example.com')
    workspaceUrl = `${stack.url}/w/${await sharedWorkspace(db, tina, 'Archive', 'viewer')}`
    browser = await launchBrowser()
    page = await newPage(browser)
    await page.goto(`${stack.url}/sign-in`)
    await signIn(page, 'sam@example.com')
    await page.waitForURL((url) => url.pathname !== '/sign-in')
  })

  afterAll(async () => {
    await browser?.close()
    await stack?.stop()
    rmSync(folder, { recursive: true, force: true })
  })

  it('reads a scan by OCR with per-page progress; it ends Ready and is found by search', async () => {
    await page.goto(`${workspaceUrl}/library`)
    await page.getByLabel('Upload files').setInputFiles(scanFile)
    // In the upload queue (the library's row below it says the same).
    const progress = page
      .getByRole('region', { name: 'Uploads' })
      .getByText(/Recognising page 1 of 1…/)
    await progress.waitFor({ timeout: 60_000 })
    await screenshot(page, 'ocr-progress')
    await page.emulateMedia({ colorScheme: 'dark' })
    await screenshot(page, 'ocr-progress-dark')
    await page.emulateMedia({ colorScheme: 'light' })

    const row = page.getByRole('row', { name: /scanned-history\.pdf/ })
    await row.getByText('Ready').waitFor({ timeout: 150_000 })
    expect(await seriousViolations(page)).toEqual([])

    await page.goto(`${workspaceUrl}/search`)
    await page.getByRole('combobox', { name: 'Search documents' }).fill('typewriter Sholes')
    const first = page.getByRole('listbox', { name: 'Search results' }).getByRole('option').first()
    await first.waitFor()
    expect(await first.innerText()).toMatch(/Sholes/)
    const { data: doc } = await db
      .from('documents')
      .select('ocr_pages, page_count')
      .eq('file_name', 'scanned-history.pdf')
      .single()
    expect(doc).toEqual({ ocr_pages: 1, page_count: 1 })
  })

  it('the library says the text was read by OCR, on a laptop and a phone', async () => {
    await page.goto(`${workspaceUrl}/library`)
    const row = page.getByRole('row', { name: /scanned-history\.pdf/ })
    await row.getByText('Text read by OCR from 1 scanned page').waitFor({ state: 'attached' })
    await row.getByText('OCR', { exact: true }).waitFor()
    await screenshot(page, 'ocr-library')
    await page.emulateMedia({ colorScheme: 'dark' })
    await screenshot(page, 'ocr-library-dark')
    await page.emulateMedia({ colorScheme: 'light' })
    expect(await seriousViolations(page)).toEqual([])
  })

  it('a citation opens the scanned page with the lines OCR placed tinted', async () => {
    const { data: chunks, error } = await db
      .from('chunks')
      .select('id, document_id, content, page_start, document:documents!inner(file_name)')
      .eq('document.file_name', 'scanned-history.pdf')
      .order('ordinal')
    if (error) throw error
    const chunk = chunks.find((candidate) => candidate.content.includes('Sholes'))!
    expect(chunk.page_start).toBe(1)
    const url = `${workspaceUrl}/documents/${chunk.document_id}?chunk=${chunk.id}`
    const boxes = (on: Page) => on.locator('[data-page="1"] .pdf-ocr-layer .pdf-passage')
    await page.goto(url)
    await boxes(page).first().waitFor()
    expect(await boxes(page).count()).toBeGreaterThanOrEqual(3)
    // Each box sits inside the page.
    const pageBox = (await page.locator('[data-page="1"]').boundingBox())!
    const first = (await boxes(page).first().boundingBox())!
    expect(first.x).toBeGreaterThanOrEqual(pageBox.x)
    expect(first.x + first.width).toBeLessThanOrEqual(pageBox.x + pageBox.width + 1)
    expect(first.height).toBeGreaterThan(4)
    await screenshot(page, 'ocr-citation', { fullPage: false })
    await page.emulateMedia({ colorScheme: 'dark' })
    await screenshot(page, 'ocr-citation-dark', { fullPage: false })
    await page.emulateMedia({ colorScheme: 'light' })
    expect(await seriousViolations(page)).toEqual([])

    const phone = await newPage(browser, { viewport: { width: 390, height: 844 } })
    await phone.goto(`${stack.url}/sign-in`)
    await signIn(phone, 'sam@example.com')
    await phone.waitForURL((at) => at.pathname !== '/sign-in')
    await phone.goto(url)
    await boxes(phone).first().waitFor()
    await screenshot(phone, 'ocr-citation-phone', { fullPage: false })
    await phone.emulateMedia({ colorScheme: 'dark' })
    await screenshot(phone, 'ocr-citation-phone-dark', { fullPage: false })
    await phone.goto(`${workspaceUrl}/library`)
    await phone.getByText('OCR', { exact: true }).first().waitFor()
    await screenshot(phone, 'ocr-library-phone-dark')
    await phone.context().close()
  })

  it('Find searches a scanned page’s OCR text and marks the match on its line', async () => {
    const { data: doc, error } = await db
      .from('documents')
      .select('id')
      .eq('file_name', 'scanned-history.pdf')
      .single()
    if (error) throw error
    const url = `${workspaceUrl}/documents/${doc.id}`
    const current = (on: Page) => on.locator('[data-page="1"] .pdf-ocr-found .pdf-found-current')
    const find = async (on: Page, words: string) => {
      await on.goto(url)
      await on.locator('[data-page="1"] .pdf-text-layer').waitFor({ state: 'attached' })
      await on.getByRole('button', { name: 'Find', exact: true }).click()
      await on.getByLabel('Find in document').fill(words)
      await current(on).waitFor()
    }

    // The page is a picture: pdf.js has no text for it, only the lines OCR read.
    await find(page, 'sholes')
    const status = page.getByRole('search').getByRole('status')
    await expect.poll(() => status.textContent()).toMatch(/^1 of \d+$/)
    const pageBox = (await page.locator('[data-page="1"]').boundingBox())!
    const mark = (await current(page).boundingBox())!
    expect(mark.x).toBeGreaterThanOrEqual(pageBox.x)
    expect(mark.x + mark.width).toBeLessThanOrEqual(pageBox.x + pageBox.width + 1)
    expect(mark.height).toBeGreaterThan(4)
    // About one word wide (the line's share of "Sholes"), not the whole line.
    expect(mark.width).toBeGreaterThan(10)
    expect(mark.width).toBeLessThan(pageBox.width / 3)
    await screenshot(page, 'ocr-find', { fullPage: false })
    await page.emulateMedia({ colorScheme: 'dark' })
    await screenshot(page, 'ocr-find-dark', { fullPage: false })
    await page.emulateMedia({ colorScheme: 'light' })
    expect(await seriousViolations(page)).toEqual([])

    // Next steps through the page's matches; words not on it find nothing and mark nothing.
    const total = Number((await status.textContent())!.split(' of ')[1])
    if (total > 1) {
      await page.getByRole('button', { name: 'Next match' }).click()
      await expect.poll(() => status.textContent()).toBe(`2 of ${total}`)
      expect(await current(page).count()).toBe(1)
    }
    await page.getByLabel('Find in document').fill('zeppelin armada')
    await expect.poll(() => status.textContent()).toBe('No matches')
    expect(await page.locator('.pdf-found').count()).toBe(0)

    const phone = await newPage(browser, { viewport: { width: 390, height: 844 } })
    await phone.goto(`${stack.url}/sign-in`)
    await signIn(phone, 'sam@example.com')
    await phone.waitForURL((at) => at.pathname !== '/sign-in')
    await find(phone, 'typewriter')
    await screenshot(phone, 'ocr-find-phone', { fullPage: false })
    await phone.emulateMedia({ colorScheme: 'dark' })
    await screenshot(phone, 'ocr-find-phone-dark', { fullPage: false })
    await phone.context().close()
  })

  it('a teammate watching the library sees which page OCR is on; Cancel leaves nothing behind', async () => {
    // Tina watches on a laptop and on her phone; Sam's browser reads the scan.
    const laptop = await newPage(browser)
    const phone = await newPage(browser, { viewport: { width: 390, height: 844 } })
    for (const watcher of [laptop, phone]) {
      await watcher.goto(`${stack.url}/sign-in`)
      await signIn(watcher, 'tina@example.com')
      await watcher.waitForURL((at) => at.pathname !== '/sign-in')
      await watcher.goto(`${workspaceUrl}/library`)
      await watcher
        .getByRole('table', { name: 'Documents' })
        .or(watcher.getByText('No documents yet'))
        .waitFor()
    }

    await page.goto(`${workspaceUrl}/library`)
    await page.getByLabel('Upload files').setInputFiles(longScanFile)
    await page
      .getByRole('region', { name: 'Uploads' })
      .getByText(/Recognising page 1 of 3…/)
      .waitFor({ timeout: 60_000 })
    // Tina has no upload queue: what she reads comes from the documents row, live.
    const tinaRow = laptop.getByRole('row', { name: /long-scan\.pdf/ })
    await tinaRow.getByText('Recognising page 1 of 3… 10%').waitFor()
    expect(
      await tinaRow.getByRole('progressbar', { name: 'Recognising page 1 of 3' }).count(),
    ).toBe(1)
    await screenshot(laptop, 'ocr-teammate')
    await laptop.emulateMedia({ colorScheme: 'dark' })
    await screenshot(laptop, 'ocr-teammate-dark')
    expect(await seriousViolations(laptop)).toEqual([])
    const phoneRow = phone.getByRole('row', { name: /long-scan\.pdf/ })
    await phoneRow.getByText(/Recognising page [12] of 3…/).waitFor()
    await screenshot(phone, 'ocr-teammate-phone')
    await phone.emulateMedia({ colorScheme: 'dark' })
    await screenshot(phone, 'ocr-teammate-phone-dark')
    // The next page follows, the bar with it (a third of extraction's share further on).
    await tinaRow.getByText('Recognising page 2 of 3… 23%').waitFor({ timeout: 90_000 })
    // The document's own page says the same while it is read.
    await tinaRow.getByRole('link', { name: 'Long Scan' }).click()
    await laptop.getByText(/^Recognising page [23] of 3… \d+%$/).waitFor()
    await screenshot(laptop, 'ocr-teammate-document-dark')
    await laptop.emulateMedia({ colorScheme: 'light' })
    await screenshot(laptop, 'ocr-teammate-document')
    expect(await seriousViolations(laptop)).toEqual([])

    await page.getByRole('button', { name: 'Cancel long-scan.pdf' }).click()
    await page.getByText('Cancelled', { exact: true }).waitFor()
    // The cancelled upload's row goes (deleteDocument takes its original with it), for Tina too.
    await expect
      .poll(
        async () =>
          (await db.from('documents').select('id').eq('file_name', 'long-scan.pdf')).data?.length,
        { timeout: 30_000 },
      )
      .toBe(0)
    await phoneRow.waitFor({ state: 'detached' })
    await laptop.getByText('Document not found').waitFor()
    await laptop.context().close()
    await phone.context().close()
  })
})
