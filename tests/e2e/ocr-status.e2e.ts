import type { SupabaseClient } from '@supabase/supabase-js'
import type { Browser, Locator, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { signIn } from './support/app.ts'
import { seriousViolations } from './support/axe.ts'
import { signedUpClient } from './support/accounts.ts'
import { launchBrowser, newPage, screenshot } from './support/browser.ts'
import { startStack } from './support/stack.ts'

// A document being read by OCR says so in the same words everywhere: the library row (a new
// version's too, wrapped rather than cut short), the document page's badge and its body. The
// rows are written as an importer in the middle of OCR leaves them (ProgressReporter.ocrPage).
describe('OCR status, said one way', () => {
  let stack: Awaited<ReturnType<typeof startStack>>
  let browser: Browser
  let db: SupabaseClient
  let workspaceUrl = ''
  let scanId = ''
  const scanning: string[] = []

  /** A heartbeat from the importer: the rows stay "processing", not interrupted. */
  async function beat() {
    for (const id of scanning) {
      const { error } = await db.from('documents').update({ progress: 0.3 }).eq('id', id)
      if (error) throw error
    }
  }

  async function insert(row: Record<string, unknown>) {
    const { data, error } = await db.from('documents').insert(row).select('id').single()
    if (error) throw error
    return data.id as string
  }

  async function signedIn(viewport: { width: number; height: number }) {
    const page = await newPage(browser, { viewport })
    await page.goto(`${stack.url}/sign-in`)
    await signIn(page, 'olga@example.com')
    await page.waitForURL((url) => url.pathname !== '/sign-in')
    return page
  }

  /** Whether the text shows whole: no ellipsis, no line clamped, nothing clipped by its row. */
  const whole = (locator: Locator) =>
    locator.evaluate((element) => {
      const row = element.closest('[role="row"]')!.getBoundingClientRect()
      const box = element.getBoundingClientRect()
      return (
        element.scrollWidth <= element.clientWidth &&
        element.scrollHeight <= element.clientHeight + 1 &&
        box.bottom <= row.bottom
      )
    })

  beforeAll(async () => {
    stack = await startStack()
    db = await signedUpClient(stack.url, 'Olga Owner', 'olga@example.com')
    const { data: workspace, error } = await db
      .from('workspaces')
      .insert({ name: 'Archive' })
      .select('id')
      .single()
    if (error) throw error
    workspaceUrl = `${stack.url}/w/${workspace.id}`
    const scan = {
      workspace_id: workspace.id,
      mime_type: 'application/pdf',
      status: 'processing',
      stage: 'extracting',
      progress: 0.3,
    }
    const current = await insert({
      workspace_id: workspace.id,
      title: 'Quarterly board pack',
      file_name: 'board-pack.pdf',
      mime_type: 'application/pdf',
      status: 'ready',
      stage: 'ready',
      progress: 1,
    })
    scanning.push(
      await insert({
        ...scan,
        title: 'Quarterly board pack',
        file_name: 'board-pack-scanned.pdf',
        replaces_id: current,
        ocr_page: 12,
        ocr_page_count: 30,
      }),
    )
    scanId = await insert({
      ...scan,
      title: 'Harbour survey 1954',
      file_name: 'harbour-survey-1954.pdf',
      ocr_page: 3,
      ocr_page_count: 4,
    })
    scanning.push(scanId)
    browser = await launchBrowser()
  })

  afterAll(async () => {
    await browser?.close()
    await stack?.stop()
  })

  for (const [device, viewport] of [
    ['desktop', { width: 1280, height: 800 }],
    ['phone', { width: 390, height: 844 }],
  ] as const) {
    it(`the library row says the page OCR is on, whole, for a new version too (${device})`, async () => {
      await beat()
      const page = await signedIn(viewport)
      await page.goto(`${workspaceUrl}/library`)
      const replacing = page
        .getByRole('row', { name: /board-pack\.pdf/ })
        .getByText('New version: Recognising page 12 of 30… 30%')
      const scan = page
        .getByRole('row', { name: /harbour-survey-1954\.pdf/ })
        .getByText('Recognising page 3 of 4… 30%')
      await replacing.waitFor()
      await scan.waitFor()
      expect(await whole(replacing)).toBe(true)
      expect(await whole(scan)).toBe(true)
      await screenshot(page, `ocr-status-library-${device}`)
      await page.emulateMedia({ colorScheme: 'dark' })
      await screenshot(page, `ocr-status-library-${device}-dark`)
      expect(await seriousViolations(page)).toEqual([])
      await page.context().close()
    })

    it(`the document page's badge and body say the same (${device})`, async () => {
      await beat()
      const page = await signedIn(viewport)
      await page.goto(`${workspaceUrl}/documents/${scanId}`)
      const details = page.getByRole('region', { name: 'Document details' })
      await details.getByText('Recognising page 3 of 4', { exact: true }).waitFor()
      await page.getByText('Recognising page 3 of 4… 30%').waitFor()
      expect(await details.getByText('Extracting text').count()).toBe(0)
      await screenshot(page, `ocr-status-document-${device}`)
      await page.emulateMedia({ colorScheme: 'dark' })
      await screenshot(page, `ocr-status-document-${device}-dark`)
      expect(await seriousViolations(page)).toEqual([])
      await page.context().close()
    })
  }

  it('the document page says Interrupted once the heartbeat stops, as the library does', async () => {
    await beat()
    const page: Page = await signedIn({ width: 1280, height: 800 })
    await page.clock.install()
    // The page counts time from the database's clock, read once as an offset from its own:
    // fast-forwarded after that, its clock stands for time passing.
    const databaseTime = () =>
      page.waitForResponse((response) => response.url().includes('/rpc/database_now'))
    const clockRead = databaseTime()
    await page.goto(`${workspaceUrl}/documents/${scanId}`)
    const details = page.getByRole('region', { name: 'Document details' })
    await details.getByText('Recognising page 3 of 4', { exact: true }).waitFor()
    await clockRead
    // No write for 90 s: past INTERRUPTED_AFTER_MS.
    await page.clock.fastForward(90_000)
    await details.getByText('Interrupted', { exact: true }).waitFor()
    await page.getByText('The import of this document stopped').waitFor()
    await screenshot(page, 'ocr-status-document-interrupted')
    await page.emulateMedia({ colorScheme: 'dark' })
    await screenshot(page, 'ocr-status-document-interrupted-dark')
    expect(await seriousViolations(page)).toEqual([])
    const libraryClockRead = databaseTime()
    await page.goto(`${workspaceUrl}/library`)
    await libraryClockRead
    await page.clock.fastForward(90_000)
    await page
      .getByRole('row', { name: /harbour-survey-1954\.pdf/ })
      .getByText('Interrupted')
      .waitFor()
    await page.context().close()
  })
})
