import { join } from 'node:path'
import type { SupabaseClient } from '@supabase/supabase-js'
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { signIn } from './support/app.ts'
import { seriousViolations } from './support/axe.ts'
import { signedUpClient } from './support/accounts.ts'
import { launchBrowser, newPage, screenshot } from './support/browser.ts'
import { repoRoot } from './support/paths.ts'
import { startStack } from './support/stack.ts'

// Test data lives beside the checkout, never in it (see ../shared/data/README.md).
const sources = join(repoRoot, '../shared/data/docling-testdata/pdf/sources')
// Five A4 pages without an outline; three Letter pages whose outline has three parts.
const plainPdf = `${sources}/multi_page.pdf`
const outlinedPdf = `${sources}/bookmark_sample.pdf`

/** Whether the element is on screen now (scrolled to), not merely rendered. */
function inViewport(locator: Locator) {
  return locator.evaluate((element) => {
    const box = element.getBoundingClientRect()
    return box.bottom > 0 && box.top < window.innerHeight
  })
}

/** Switches to the dark theme and lets it settle (its colours fade in) before a screenshot. */
async function darkScreenshot(on: Page, name: string) {
  await on.emulateMedia({ colorScheme: 'dark' })
  await on.waitForFunction(() => document.documentElement.classList.contains('dark'))
  // Two frames: the fade's transitions have started, so the screenshot helper waits them out.
  await on.evaluate(
    () => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))),
  )
  await screenshot(on, name, { fullPage: false })
  await on.emulateMedia({ colorScheme: 'light' })
}

const width = (locator: Locator) => locator.evaluate((element) => element.clientWidth)

// Issue #22's scenario: a reader finds their way around a long filing — page n of N and
// go-to-page, zoom and fit width, find with next/previous, the outline — on a desktop and a
// phone, with the cited passage's banner always in reach.
describe('the PDF viewer', () => {
  let stack: Awaited<ReturnType<typeof startStack>>
  let browser: Browser
  let page: Page
  let db: SupabaseClient
  let documents = ''

  async function documentId(fileName: string) {
    const { data, error } = await db
      .from('documents')
      .select('id')
      .eq('file_name', fileName)
      .single()
    if (error) throw error
    return data.id as string
  }

  /** Opens a PDF (at a passage with `chunkOrdinal`) and waits for its toolbar and first page. */
  async function open(on: Page, fileName: string, chunkOrdinal?: number) {
    const id = await documentId(fileName)
    let query = ''
    if (chunkOrdinal !== undefined) {
      const { data, error } = await db
        .from('chunks')
        .select('id')
        .eq('document_id', id)
        .eq('ordinal', chunkOrdinal)
        .single()
      if (error) throw error
      query = `?chunk=${data.id}`
    }
    await on.goto(`${documents}/${id}${query}`)
    await on.getByRole('toolbar', { name: 'PDF' }).waitFor({ timeout: 30_000 })
    await on.locator('[data-page] canvas').first().waitFor({ timeout: 30_000 })
  }

  const pageNumber = (on: Page) => on.getByLabel(/^Page number/)

  beforeAll(async () => {
    stack = await startStack()
    db = await signedUpClient(stack.url, 'Paula Reader', 'paula@example.com')
    const { data: workspace, error } = await db
      .from('workspaces')
      .insert({ name: 'Filings' })
      .select('id')
      .single()
    if (error) throw error
    documents = `${stack.url}/w/${workspace.id}/documents`
    browser = await launchBrowser()
    page = await newPage(browser)
    await page.goto(`${stack.url}/sign-in`)
    await signIn(page, 'paula@example.com')
    await page.waitForURL((url) => url.pathname !== '/sign-in')
    await page.goto(`${stack.url}/w/${workspace.id}/library`)
    await page.getByLabel('Upload files').setInputFiles([plainPdf, outlinedPdf])
    for (const name of [/multi_page\.pdf/, /bookmark_sample\.pdf/]) {
      const row = page.getByRole('row', { name })
      await row.getByText('Ready').waitFor({ timeout: 120_000 })
    }
  })

  afterAll(async () => {
    await browser?.close()
    await stack?.stop()
  })

  it('shows page n of N, following scrolling, and goes to a typed page', async () => {
    await open(page, 'multi_page.pdf')
    const toolbar = page.getByRole('toolbar', { name: 'PDF' })
    await toolbar.getByText('of 5').waitFor()
    expect(await pageNumber(page).inputValue()).toBe('1')
    // No outline in this PDF: no outline button, no sidebar.
    expect(await toolbar.getByRole('button', { name: 'Outline' }).count()).toBe(0)

    await pageNumber(page).fill('4')
    await pageNumber(page).press('Enter')
    await expect.poll(() => pageNumber(page).inputValue()).toBe('4')
    // Page 4 starts just under the sticky toolbar, which stays in view.
    const top = await page.locator('[data-page="4"]').evaluate((e) => e.getBoundingClientRect().top)
    const toolbarBottom = await toolbar.evaluate((e) => e.getBoundingClientRect().bottom)
    expect(top).toBeGreaterThanOrEqual(toolbarBottom)
    expect(top).toBeLessThan(toolbarBottom + 40)
    await page.locator('[data-page="4"] canvas').waitFor()

    // A number outside the document is refused gently, and nothing moves.
    await pageNumber(page).fill('9')
    await pageNumber(page).press('Enter')
    await page.getByText('Enter a page from 1 to 5').waitFor()
    expect(await pageNumber(page).getAttribute('aria-invalid')).toBe('true')
    await pageNumber(page).press('Escape')
    expect(await pageNumber(page).inputValue()).toBe('4')
    expect(await page.getByText('Enter a page from 1 to 5').count()).toBe(0)

    await toolbar.getByRole('button', { name: 'Next page' }).click()
    await expect.poll(() => pageNumber(page).inputValue()).toBe('5')
    expect(await toolbar.getByRole('button', { name: 'Next page' }).isDisabled()).toBe(true)
    await toolbar.getByRole('button', { name: 'Previous page' }).click()
    await expect.poll(() => pageNumber(page).inputValue()).toBe('4')

    // Scrolling by hand moves the indicator too.
    await page.evaluate(() => window.scrollTo(0, 0))
    await expect.poll(() => pageNumber(page).inputValue()).toBe('1')
    expect(await seriousViolations(page)).toEqual([])
  })

  it('zooms in and out by steps, scrolls wide pages sideways, and fits the width again', async () => {
    await open(page, 'multi_page.pdf')
    const toolbar = page.getByRole('toolbar', { name: 'PDF' })
    const zoom = toolbar.getByLabel('Zoom', { exact: true })
    const first = page.locator('[data-page="1"]')
    const column = page.locator('[data-page]').first().locator('xpath=../..')
    // Fit width by default: the page fills the column.
    expect(
      await toolbar.getByRole('button', { name: 'Fit width' }).getAttribute('aria-pressed'),
    ).toBe('true')
    const columnWidth = await width(column)
    expect(Math.abs((await width(first)) - columnWidth)).toBeLessThanOrEqual(2)
    const fitted = Number((await zoom.textContent())?.replace('%', ''))
    expect(fitted).toBe(Math.round((columnWidth / 595.2) * 100))

    await toolbar.getByRole('button', { name: 'Zoom out' }).click()
    await expect.poll(() => zoom.textContent()).toBe('125%')
    await expect.poll(() => width(first)).toBe(Math.round(595.2 * 1.25))
    for (const label of ['150%', '200%']) {
      await toolbar.getByRole('button', { name: 'Zoom in' }).click()
      await expect.poll(() => zoom.textContent()).toBe(label)
    }
    expect(
      await toolbar.getByRole('button', { name: 'Fit width' }).getAttribute('aria-pressed'),
    ).toBe('false')
    // Wider than the column: scrollable sideways, never clipped.
    await expect.poll(() => width(first)).toBe(Math.round(595.2 * 2))
    const overflow = await column.evaluate((e) => ({
      scroll: e.scrollWidth,
      client: e.clientWidth,
    }))
    expect(overflow.scroll).toBeGreaterThanOrEqual(Math.round(595.2 * 2))
    expect(overflow.client).toBeLessThan(overflow.scroll)
    await page.locator('[data-page="1"] canvas').waitFor()
    await screenshot(page, 'pdf-zoomed', { fullPage: false })

    await toolbar.getByRole('button', { name: 'Fit width' }).click()
    await expect.poll(() => zoom.textContent()).toBe(`${fitted}%`)
    await expect
      .poll(async () => Math.abs((await width(first)) - columnWidth))
      .toBeLessThanOrEqual(2)

    // A narrower window refits the pages to it.
    await page.setViewportSize({ width: 900, height: 800 })
    await expect
      .poll(async () => (await width(first)) - (await width(column)))
      .toBeLessThanOrEqual(1)
    expect(await width(first)).toBeLessThan(columnWidth)
    await page.setViewportSize({ width: 1280, height: 800 })
  })

  it('finds text on every page, drawn or not, with next and previous', async () => {
    await open(page, 'multi_page.pdf')
    await page.locator('main').click({ position: { x: 5, y: 5 } })
    await page.keyboard.press('Control+f')
    const find = page.getByLabel('Find in document')
    await expect.poll(() => find.evaluate((e) => e === document.activeElement)).toBe(true)
    const status = page.getByRole('search').getByRole('status')

    // Case-insensitive: "Typewriter" finds "typewriter" (6 on page 1, 1 on page 2, 1 on page 5).
    await find.fill('TYPEWRITER')
    await expect.poll(() => status.textContent()).toBe('1 of 8')
    const current = page.locator('.pdf-found-current')
    await current.waitFor()
    expect(await page.locator('[data-page="1"] .pdf-found').count()).toBe(6)
    expect((await current.textContent())?.toLowerCase()).toBe('typewriter')
    expect(await page.locator('[data-page="1"] .pdf-found-current').count()).toBe(1)

    await find.press('Enter')
    await expect.poll(() => status.textContent()).toBe('2 of 8')
    // Back past the first wraps to the last, on page 5: not drawn until find goes there.
    await find.press('Shift+Enter')
    await find.press('Shift+Enter')
    await expect.poll(() => status.textContent()).toBe('8 of 8')
    const last = page.locator('[data-page="5"] .pdf-found-current')
    await last.waitFor({ timeout: 15_000 })
    await expect.poll(() => inViewport(last)).toBe(true)
    await page.getByRole('button', { name: 'Next match' }).click()
    await expect.poll(() => status.textContent()).toBe('1 of 8')
    await expect
      .poll(() => inViewport(page.locator('[data-page="1"] .pdf-found-current')))
      .toBe(true)
    await screenshot(page, 'pdf-find', { fullPage: false })

    await find.fill('no such words')
    await expect.poll(() => status.textContent()).toBe('No matches')
    expect(await page.locator('.pdf-found').count()).toBe(0)
    expect(await page.getByRole('button', { name: 'Next match' }).isDisabled()).toBe(true)
    expect(await seriousViolations(page)).toEqual([])

    // Escape closes find, clears the marks and hands focus back to the Find button.
    await find.press('Escape')
    expect(await page.getByLabel('Find in document').count()).toBe(0)
    const findButton = page.getByRole('button', { name: 'Find', exact: true })
    await expect.poll(() => findButton.evaluate((e) => e === document.activeElement)).toBe(true)
  })

  it('lists the outline in a sidebar, and jumps to an entry’s page', async () => {
    await open(page, 'bookmark_sample.pdf')
    const outline = page.getByRole('navigation', { name: 'Outline' })
    await outline.waitFor()
    const entries = outline.getByRole('button')
    // Nested as in the PDF, each with the page it opens.
    expect(await entries.allTextContents()).toEqual([
      'PART I - DEFINITIONS1',
      '1. Interpretation1',
      '2. Construction of Terms1',
      'PART II - OBLIGATIONS2',
      '3. Payment Terms2',
      '3.1 Payment Schedule2',
      '4. Termination3',
      'PART III - MISCELLANEOUS3',
    ])
    expect(await outline.locator('ul ul ul').getByRole('button').allTextContents()).toEqual([
      '3.1 Payment Schedule2',
    ])
    await entries.filter({ hasText: 'PART III' }).click()
    await expect.poll(() => pageNumber(page).inputValue()).toBe('3')
    await page.locator('[data-page="3"] canvas').waitFor()
    await screenshot(page, 'pdf-outline', { fullPage: false })
    expect(await seriousViolations(page)).toEqual([])

    await darkScreenshot(page, 'pdf-outline-dark')

    // Collapsible: the toolbar's Outline button hides and shows it.
    const toggle = page.getByRole('button', { name: 'Outline' })
    expect(await toggle.getAttribute('aria-expanded')).toBe('true')
    await toggle.click()
    await outline.waitFor({ state: 'detached' })
    expect(await toggle.getAttribute('aria-expanded')).toBe('false')
    await toggle.click()
    await outline.waitFor()
  })

  it('keeps the cited passage highlighted, its banner in reach under the toolbar', async () => {
    await open(page, 'multi_page.pdf', 2)
    const highlighted = page.locator('.pdf-passage')
    await highlighted.first().waitFor({ timeout: 30_000 })
    await expect.poll(() => inViewport(highlighted.first())).toBe(true)
    const banner = page.getByRole('region', { name: 'Passage' })
    await page.evaluate(() => window.scrollBy(0, 1500))
    await expect.poll(() => banner.evaluate((e) => e.getBoundingClientRect().top)).toBe(0)
    const bannerBottom = await banner.evaluate((e) => e.getBoundingClientRect().bottom)
    const toolbarTop = await page
      .getByRole('toolbar', { name: 'PDF' })
      .evaluate((e) => e.getBoundingClientRect().top)
    expect(toolbarTop).toBeGreaterThanOrEqual(bannerBottom - 1)
    await screenshot(page, 'pdf-passage-scrolled', { fullPage: false })
    await darkScreenshot(page, 'pdf-passage-scrolled-dark')
  })

  describe('on a phone', () => {
    let phone: BrowserContext
    let mobile: Page

    beforeAll(async () => {
      phone = await browser.newContext({
        viewport: { width: 390, height: 844 },
        isMobile: true,
        hasTouch: true,
        storageState: await page.context().storageState(),
      })
      mobile = await phone.newPage()
    })

    afterAll(() => phone?.close())

    it('fits the width, lets the browser pinch, and keeps the banner stuck in view', async () => {
      await open(mobile, 'multi_page.pdf', 2)
      const first = mobile.locator('[data-page="1"]')
      const column = first.locator('xpath=../..')
      expect(Math.abs((await width(first)) - (await width(column)))).toBeLessThanOrEqual(2)
      expect(await width(column)).toBeLessThanOrEqual(390)
      // Nothing stops the browser's own pinch zoom.
      expect(await column.evaluate((e) => getComputedStyle(e).touchAction)).not.toBe('none')
      expect(
        await mobile.evaluate(() =>
          document.querySelector('meta[name=viewport]')?.getAttribute('content'),
        ),
      ).not.toMatch(/user-scalable=no|maximum-scale=1(\D|$)/)

      const banner = mobile.getByRole('region', { name: 'Passage' })
      await mobile.locator('.pdf-passage').first().waitFor({ timeout: 30_000 })
      await mobile.evaluate(() => window.scrollBy(0, 2000))
      await expect
        .poll(() => inViewport(banner.getByRole('button', { name: 'Clear highlight' })))
        .toBe(true)
      // Under the app's top bar, over the toolbar: all three reachable.
      const [bar, stuck, toolbar] = await Promise.all(
        [
          mobile.getByRole('button', { name: 'Open menu' }),
          banner,
          mobile.getByRole('toolbar', { name: 'PDF' }),
        ].map((l) => l.evaluate((e) => e.getBoundingClientRect().toJSON() as DOMRect)),
      )
      expect(stuck!.top).toBeGreaterThanOrEqual(bar!.bottom)
      expect(toolbar!.top).toBeGreaterThanOrEqual(stuck!.bottom - 1)
      expect(toolbar!.bottom).toBeLessThan(844 / 2)
      await screenshot(mobile, 'phone-pdf-passage', { fullPage: false })
      await darkScreenshot(mobile, 'phone-pdf-passage-dark')
      expect(await seriousViolations(mobile)).toEqual([])
    })

    it('keeps the top bar, banner and toolbar below the Reconnecting bar while offline', async () => {
      await open(mobile, 'multi_page.pdf', 2)
      await mobile.locator('.pdf-passage').first().waitFor({ timeout: 30_000 })
      await mobile.evaluate(() => window.scrollBy(0, 2000))
      await stack.halt()
      try {
        const reconnecting = mobile.getByText('Reconnecting…')
        await reconnecting.waitFor({ timeout: 30_000 })
        const boxes = await Promise.all(
          [
            reconnecting,
            mobile.getByRole('button', { name: 'Open menu' }),
            mobile.getByRole('region', { name: 'Passage' }),
            mobile.getByRole('toolbar', { name: 'PDF' }),
          ].map((l) => l.evaluate((e) => e.getBoundingClientRect().toJSON() as DOMRect)),
        )
        const [offline, bar, stuck, toolbar] = boxes
        expect(offline!.bottom).toBeLessThanOrEqual(bar!.top)
        expect(stuck!.top).toBeGreaterThanOrEqual(bar!.bottom)
        expect(toolbar!.top).toBeGreaterThanOrEqual(stuck!.bottom - 1)
        await screenshot(mobile, 'phone-pdf-passage-offline', { fullPage: false })
      } finally {
        await stack.restart()
      }
      await mobile.getByText('Reconnecting…').waitFor({ state: 'detached', timeout: 30_000 })
    })

    it('keeps the outline behind a button, in a sheet', async () => {
      await open(mobile, 'bookmark_sample.pdf')
      expect(await mobile.getByRole('navigation', { name: 'Outline' }).count()).toBe(0)
      await mobile.getByRole('button', { name: 'Outline' }).click()
      const sheet = mobile.getByRole('dialog', { name: 'Outline' })
      await sheet.waitFor()
      await screenshot(mobile, 'phone-pdf-outline', { fullPage: false })
      await sheet.getByRole('button', { name: /PART II - OBLIGATIONS/ }).click()
      await sheet.waitFor({ state: 'detached' })
      await expect.poll(() => pageNumber(mobile).inputValue()).toBe('2')

      await mobile.getByRole('button', { name: 'Find', exact: true }).click()
      await mobile.getByLabel('Find in document').fill('clause')
      await expect
        .poll(() => mobile.getByRole('search').getByRole('status').textContent())
        .toMatch(/^\d+ of \d+$/)
      await screenshot(mobile, 'phone-pdf-find', { fullPage: false })
      await darkScreenshot(mobile, 'phone-pdf-find-dark')
    })
  })
})
