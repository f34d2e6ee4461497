import { readFileSync } from 'node:fs'
import { basename, join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ingestFile } from '../../packages/core/src/ingest/ingest-file.ts'
import { signIn } from './support/app.ts'
import { seriousViolations } from './support/axe.ts'
import { signedUpClient } from './support/accounts.ts'
import { launchBrowser, newPage, screenshot } from './support/browser.ts'
import { repoRoot } from './support/paths.ts'
import { startStack } from './support/stack.ts'

// Test data lives beside the checkout, never in it (see ../shared/data/README.md).
const data = join(repoRoot, '../shared/data/docling-testdata')
const files = [
  { path: `${data}/pdf/sources/multi_page.pdf`, mimeType: 'application/pdf' },
  {
    path: `${data}/docx/sources/word_sample.docx`,
    mimeType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  },
]

// Long enough to be cut off in the sidebar, where its title shows it whole.
const workspaceName = 'Office history of the Northern Regional Records Service'

// Issue #6's scenario: two real documents go through the ingest pipeline; their owner searches
// as they type, sees highlighted passages from both, narrows to PDFs, and opens a passage.
describe('searching a workspace', () => {
  let stack: Awaited<ReturnType<typeof startStack>>
  let browser: Browser
  let page: Page
  let searchUrl = ''

  beforeAll(async () => {
    stack = await startStack()
    const owner = await signedUpClient(stack.url, 'Sam Searcher', 'sam@example.com')
    const { data: workspace, error } = await owner
      .from('workspaces')
      .insert({ name: workspaceName })
      .select('id')
      .single()
    if (error) throw error
    for (const file of files) {
      const result = await ingestFile(owner, {
        workspaceId: workspace.id,
        bytes: new Uint8Array(readFileSync(file.path)),
        fileName: basename(file.path),
        mimeType: file.mimeType,
      })
      expect(result.status, JSON.stringify(result)).toBe('ready')
    }
    searchUrl = `${stack.url}/w/${workspace.id}/search`
    browser = await launchBrowser()
    page = await newPage(browser)
    await page.goto(`${stack.url}/sign-in`)
    await signIn(page, 'sam@example.com')
    await page.waitForURL((url) => url.pathname !== '/sign-in')
  })

  afterAll(async () => {
    await browser?.close()
    await stack?.stop()
  })

  const results = () => page.getByRole('listbox', { name: 'Search results' }).getByRole('option')

  it('shows highlighted passages from both documents as you type', async () => {
    await page.goto(searchUrl)
    await page.getByText('Type to search your documents').waitFor()
    await page
      .getByRole('combobox', { name: 'Search documents' })
      .pressSequentially('typewriter water', { delay: 30 })
    await results().first().waitFor()
    await expect
      .poll(async () => (await results().allTextContents()).join('\n'))
      .toContain('Word Sample')
    const text = (await results().allTextContents()).join('\n')
    expect(text).toContain('Multi Page')
    expect(text).toContain('Word Sample')
    const marked = (await page.locator('[role=option] mark').allTextContents()).map((m) =>
      m.toLowerCase(),
    )
    expect(marked).toContain('typewriter')
    expect(marked).toContain('water')
    await screenshot(page, 'search-results')
    expect(await seriousViolations(page)).toEqual([])
  })

  it('narrows to PDFs with the type filter', async () => {
    await page.getByRole('combobox', { name: 'Type' }).click()
    await page.getByRole('option', { name: 'PDF' }).click()
    await expect
      .poll(async () => {
        const texts = await results().allTextContents()
        return texts.length > 0 && texts.every((t) => t.includes('Multi Page'))
      })
      .toBe(true)
    await screenshot(page, 'search-filtered', { fullPage: false })
  })

  it('opens the chosen passage highlighted on the document page with Enter', async () => {
    const box = page.getByRole('combobox', { name: 'Search documents' })
    await box.focus()
    await page.keyboard.press('ArrowDown')
    const href = await results().nth(1).getAttribute('href')
    expect(href).toMatch(/\/documents\/[0-9a-f-]+\?chunk=[0-9a-f-]+$/)
    await page.keyboard.press('Enter')
    await page.waitForURL((url) => `${url.pathname}${url.search}` === href)
    await page.getByRole('heading', { name: 'Multi Page' }).waitFor()
    await page.getByText(/Highlighted passage on page/).waitFor({ timeout: 30_000 })
    await page.locator('.pdf-passage').first().waitFor({ timeout: 30_000 })
    await screenshot(page, 'search-opened-passage', { fullPage: false })
  })

  // Issue #22: the search keeps its place in the URL.
  it('comes Back to the same query, filter and selected result', async () => {
    const opened = new URL(page.url()).searchParams.get('chunk')
    await page.goBack()
    await page.waitForURL((url) => url.pathname.endsWith('/search'))
    const params = new URL(page.url()).searchParams
    expect(params.get('q')).toBe('typewriter water')
    expect(params.get('type')).toBe('pdf')
    expect(params.get('result')).toBe(opened)
    const box = page.getByRole('combobox', { name: 'Search documents' })
    expect(await box.inputValue()).toBe('typewriter water')
    expect(await page.getByRole('combobox', { name: 'Type' }).textContent()).toContain('PDF')
    const selected = page.getByRole('option', { selected: true })
    expect(await selected.getAttribute('href')).toContain(`?chunk=${opened}`)
    expect(await page.getByRole('status').textContent()).toMatch(/^\d+ results?$|^Top 20 results$/)
    // The same address, opened afresh (a shared link), shows the same search.
    const shared = page.url()
    await page.goto(shared)
    expect(await page.getByRole('combobox', { name: 'Search documents' }).inputValue()).toBe(
      'typewriter water',
    )
    await results().first().waitFor()
    expect(await page.getByRole('option', { selected: true }).getAttribute('href')).toContain(
      `?chunk=${opened}`,
    )
  })

  it('opens the new query’s top result when Enter follows typing at once', async () => {
    await page.goto(`${searchUrl}?q=typewriter`)
    await results().first().waitFor()
    expect((await results().allTextContents()).join('\n')).not.toContain('Word Sample')
    const box = page.getByRole('combobox', { name: 'Search documents' })
    // Typed and submitted well within the pause after which typing searches.
    await box.fill('swimming lay down')
    await box.press('Enter')
    await page.waitForURL((url) => url.pathname.includes('/documents/'))
    await page.getByRole('heading', { name: 'Word Sample' }).waitFor()
    await page.goBack()
    await page.waitForURL((url) => url.searchParams.get('q') === 'swimming lay down')
  })

  it('reads well on a phone, light and dark', async () => {
    const phone = await browser.newContext({
      viewport: { width: 390, height: 844 },
      storageState: await page.context().storageState(),
    })
    const small = await phone.newPage()
    await small.goto(`${searchUrl}?q=typewriter+water`)
    await small
      .getByRole('listbox', { name: 'Search results' })
      .getByRole('option')
      .first()
      .waitFor()
    await screenshot(small, 'search-phone', { fullPage: false })
    expect(await seriousViolations(small)).toEqual([])
    await small.emulateMedia({ colorScheme: 'dark' })
    await small.waitForFunction(() => document.documentElement.classList.contains('dark'))
    await screenshot(small, 'search-phone-dark', { fullPage: false })
    expect(await seriousViolations(small)).toEqual([])
    await phone.close()

    await page.goto(`${searchUrl}?q=typewriter+water`)
    await results().first().waitFor()
    await page.emulateMedia({ colorScheme: 'dark' })
    await page.waitForFunction(() => document.documentElement.classList.contains('dark'))
    await screenshot(page, 'search-results-dark', { fullPage: false })
    expect(await seriousViolations(page)).toEqual([])
    // The workspace's long name is cut off in the sidebar; its title holds it whole.
    const switcher = page.getByRole('button', { name: /Switch workspace/ })
    expect(await switcher.getAttribute('title')).toBe(workspaceName)
    await page.emulateMedia({ colorScheme: 'light' })
  })
})
