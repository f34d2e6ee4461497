import { join } from 'node:path'
import type { SupabaseClient } from '@supabase/supabase-js'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { signIn } from './support/app.ts'
import { seriousViolations } from './support/axe.ts'
import { signedUpClient } from './support/accounts.ts'
import { launchBrowser, newPage, screenshot } from './support/browser.ts'
import { repoRoot } from './support/paths.ts'
import { startStack } from './support/stack.ts'

const data = join(repoRoot, '../shared/data/docling-testdata')
const deckFile = `${data}/pptx/sources/powerpoint_sample.pptx`
const bookFile = `${data}/xlsx/sources/xlsx_01.xlsx`

// Issue #17: slides and spreadsheets uploaded through the library end Ready, are found by
// search, and open at the cited passage: a slide under its number, a sheet as a table.
describe('slides and spreadsheets', () => {
  let stack: Awaited<ReturnType<typeof startStack>>
  let browser: Browser
  let page: Page
  let db: SupabaseClient
  let workspaceUrl = ''

  beforeAll(async () => {
    stack = await startStack()
    db = await signedUpClient(stack.url, 'Olga Office', 'olga@example.com')
    const { data: workspace, error } = await db
      .from('workspaces')
      .insert({ name: 'Quarterly' })
      .select('id')
      .single()
    if (error) throw error
    workspaceUrl = `${stack.url}/w/${workspace.id}`
    browser = await launchBrowser()
    page = await newPage(browser)
    await page.goto(`${stack.url}/sign-in`)
    await signIn(page, 'olga@example.com')
    await page.waitForURL((url) => url.pathname !== '/sign-in')
  })

  afterAll(async () => {
    await browser?.close()
    await stack?.stop()
  })

  /** The chunk of a document whose content holds `text`. */
  async function chunkWith(fileName: string, text: string) {
    const { data: chunks, error } = await db
      .from('chunks')
      .select('id, document_id, content, page_start, document:documents!inner(file_name)')
      .eq('document.file_name', fileName)
      .order('ordinal')
    if (error) throw error
    const chunk = chunks.find((candidate) => candidate.content.includes(text))
    if (!chunk) throw new Error(`no chunk of ${fileName} holds ${text}`)
    return chunk
  }

  it('uploads a PPTX and an XLSX through the library; both end Ready with their type', async () => {
    await page.goto(`${workspaceUrl}/library`)
    await page.getByLabel('Upload files').setInputFiles([deckFile, bookFile])
    for (const [name, type] of [
      [/powerpoint_sample\.pptx/, 'PowerPoint'],
      [/xlsx_01\.xlsx/, 'Excel'],
    ] as const) {
      const row = page.getByRole('row', { name })
      await row.getByText('Ready').waitFor({ timeout: 90_000 })
      await row.getByText(type, { exact: true }).first().waitFor()
    }
    await screenshot(page, 'office-library')
    expect(await seriousViolations(page)).toEqual([])
  })

  it('finds a slide by its words and opens it at the passage, under its slide number', async () => {
    await page.goto(`${workspaceUrl}/search`)
    await page.getByRole('combobox', { name: 'Search documents' }).fill('rectangle shape')
    const first = page.getByRole('listbox', { name: 'Search results' }).getByRole('option').first()
    await first.waitFor()
    expect(await first.innerText()).toMatch(/rectangle shape/i)
    // Its place reads as the slide it is on, not a page.
    await first.getByText('slide 2', { exact: true }).waitFor()
    await screenshot(page, 'office-search')
    await page.emulateMedia({ colorScheme: 'dark' })
    await screenshot(page, 'office-search-dark')
    await page.emulateMedia({ colorScheme: 'light' })

    const chunk = await chunkWith('powerpoint_sample.pptx', 'A rectangle shape')
    expect(chunk.page_start).toBe(2)
    await page.goto(`${workspaceUrl}/documents/${chunk.document_id}?chunk=${chunk.id}`)
    const marks = page.locator('mark')
    await marks.first().waitFor()
    expect((await marks.allTextContents()).join('')).toContain('A rectangle shape with this text')
    await page.getByRole('heading', { name: 'Slide 2: Second slide title' }).waitFor()
    await page.getByText('Highlighted passage on slide 2').waitFor()
    // Slide 1's table is a table.
    await page.getByRole('cell', { name: 'A merged with B' }).first().waitFor()
    await screenshot(page, 'office-slide')
    await page.emulateMedia({ colorScheme: 'dark' })
    await screenshot(page, 'office-slide-dark')
    await page.emulateMedia({ colorScheme: 'light' })
    expect(await seriousViolations(page)).toEqual([])
  })

  it('opens a sheet as a table with the cited rows marked, on a laptop and a phone', async () => {
    const chunk = await chunkWith('xlsx_01.xlsx', '| 5 | 10 | 15 | 20 |')
    const url = `${workspaceUrl}/documents/${chunk.document_id}?chunk=${chunk.id}`
    await page.goto(url)
    await page.getByRole('heading', { name: 'Sheet2' }).waitFor()
    const marks = page.locator('mark')
    await marks.first().waitFor()
    expect((await marks.allTextContents()).join(' ')).toMatch(/10.*15.*20/)
    await page.getByRole('columnheader', { name: 'col-4' }).first().waitFor()
    // A workbook has no pages to name.
    await page.getByText('Highlighted passage', { exact: true }).waitFor()
    await screenshot(page, 'office-sheet')
    await page.emulateMedia({ colorScheme: 'dark' })
    await screenshot(page, 'office-sheet-dark')
    expect(await seriousViolations(page)).toEqual([])

    const phone = await newPage(browser, { viewport: { width: 390, height: 844 } })
    await phone.goto(`${stack.url}/sign-in`)
    await signIn(phone, 'olga@example.com')
    await phone.waitForURL((at) => at.pathname !== '/sign-in')
    await phone.goto(url)
    await phone.locator('mark').first().waitFor()
    await screenshot(phone, 'phone-office-sheet')
    await phone.emulateMedia({ colorScheme: 'dark' })
    const slide = await chunkWith('powerpoint_sample.pptx', 'A rectangle shape')
    await phone.goto(`${workspaceUrl}/documents/${slide.document_id}?chunk=${slide.id}`)
    await phone.locator('mark').first().waitFor()
    await screenshot(phone, 'phone-office-slide-dark')
    expect(await seriousViolations(phone)).toEqual([])
    // The page does not scroll sideways: wide tables scroll in their own box.
    const overflow = await phone.evaluate(() => document.documentElement.scrollWidth)
    expect(overflow).toBeLessThanOrEqual(390)
  })
})
