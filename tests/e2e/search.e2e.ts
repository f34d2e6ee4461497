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
      .insert({ name: 'Office history' })
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
      .toContain('word_sample.docx')
    const text = (await results().allTextContents()).join('\n')
    expect(text).toContain('multi_page.pdf')
    expect(text).toContain('word_sample.docx')
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
        return texts.length > 0 && texts.every((t) => t.includes('multi_page.pdf'))
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
    await page.getByRole('heading', { name: 'multi_page.pdf' }).waitFor()
    await page.getByText(/Highlighted passage on page/).waitFor({ timeout: 30_000 })
    await page.locator('.pdf-passage').first().waitFor({ timeout: 30_000 })
    await screenshot(page, 'search-opened-passage', { fullPage: false })
  })
})
