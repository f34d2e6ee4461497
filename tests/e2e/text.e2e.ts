import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ingestFile } from '../../packages/core/src/ingest/ingest-file.ts'
import { signIn } from './support/app.ts'
import { seriousViolations } from './support/axe.ts'
import { signedUpClient } from './support/accounts.ts'
import { launchBrowser, newPage, screenshot } from './support/browser.ts'
import { startStack } from './support/stack.ts'

const vendors = [
  'vendor,owner,note',
  'Acme Supplies,Ada Lovelace,Paid in full. Next review in May',
  'Beta Freight,Bob Stone,Contract renewal due. Owner on leave until June',
  'Core Metals,Cy Young,Invoices overdue. Escalated to finance',
  'Delta Paper,Dora Maar,Samples approved',
].join('\n')

const guide = `<!doctype html><html><head><title>Survey guide</title></head><body>
<h1>Survey guide</h1>
<p>Before the survey, read the <a href="https://example.com/ducks_(field)">duck identification
guide</a> and pack the <a href="/kit">field kit</a>. Counts are sent to the <a
href="mailto:office@example.com">office</a> by Friday.</p></body></html>`

// Issue #22: a CSV's records and an HTML page's links read right in search snippets and in
// the sources of an offline answer: one line per record, never two run together; links as text.
describe('text that reads right', () => {
  let stack: Awaited<ReturnType<typeof startStack>>
  let browser: Browser
  let page: Page
  let workspaceUrl = ''

  beforeAll(async () => {
    stack = await startStack()
    const owner = await signedUpClient(stack.url, 'Tess Text', 'tess@example.com')
    const { data: workspace, error } = await owner
      .from('workspaces')
      .insert({ name: 'Suppliers' })
      .select('id')
      .single()
    if (error) throw error
    for (const [fileName, text, mimeType] of [
      ['vendors.csv', vendors, 'text/csv'],
      ['survey-guide.html', guide, 'text/html'],
    ] as const) {
      const result = await ingestFile(owner, {
        workspaceId: workspace.id,
        bytes: new TextEncoder().encode(text),
        fileName,
        mimeType,
      })
      expect(result.status, JSON.stringify(result)).toBe('ready')
    }
    workspaceUrl = `${stack.url}/w/${workspace.id}`
    browser = await launchBrowser()
    page = await newPage(browser)
    await page.goto(`${stack.url}/sign-in`)
    await signIn(page, 'tess@example.com')
    await page.waitForURL((url) => url.pathname !== '/sign-in')
  })

  afterAll(async () => {
    await browser?.close()
    await stack?.stop()
  })

  const results = () => page.getByRole('listbox', { name: 'Search results' }).getByRole('option')

  async function search(on: Page, query: string) {
    await on.goto(`${workspaceUrl}/search`)
    await on.getByRole('combobox', { name: 'Search documents' }).fill(query)
    await on.getByRole('listbox', { name: 'Search results' }).getByRole('option').first().waitFor()
  }

  it('shows each CSV record of a snippet on its own line', async () => {
    await search(page, 'owner')
    const snippet = results().first().locator('p')
    const lines = (await snippet.innerText()).split('\n')
    // Records on lines of their own: no line holds two vendors or two owners (ts_headline may
    // still cut the first and last record short).
    expect(lines.length).toBeGreaterThan(1)
    for (const line of lines) {
      expect(line.match(/vendor:/g)?.length ?? 0, line).toBeLessThanOrEqual(1)
      expect(line.match(/owner/g)?.length ?? 0, line).toBeLessThanOrEqual(1)
    }
    await screenshot(page, 'text-search-csv', { fullPage: false })
    expect(await seriousViolations(page)).toEqual([])
  })

  it('shows an HTML link as its text in a snippet', async () => {
    await search(page, 'identification guide')
    const text = await results().first().innerText()
    expect(text).toContain('duck identification guide')
    expect(text).not.toContain('](')
    await screenshot(page, 'text-search-link', { fullPage: false })
  })

  it('answers from the CSV with whole records, its sources free of link syntax', async () => {
    await page.goto(`${workspaceUrl}/chat`)
    await page
      .getByRole('textbox', { name: 'Ask a question' })
      .fill('Who is the owner of Beta Freight?')
    await page.keyboard.press('Enter')
    await page.waitForURL(/\/chat\/[0-9a-f-]{36}$/)
    await page.locator('[data-testid=assistant-message][data-status=complete]').waitFor()
    const reply = page.getByRole('article', { name: 'Answer' }).last()
    expect(await reply.textContent()).toContain('vendor: Beta Freight; owner: Bob Stone')
    await reply.getByText(/^Sources \(\d\)$/).click()
    const sources = reply.getByRole('list', { name: 'Sources' })
    await sources.waitFor()
    expect(await sources.textContent()).toContain('vendor: Beta Freight; owner: Bob Stone')
    await screenshot(page, 'text-chat-csv', { fullPage: false })
    expect(await seriousViolations(page)).toEqual([])

    await page
      .getByRole('textbox', { name: 'Ask a question' })
      .fill('What should I read before the survey?')
    await page.keyboard.press('Enter')
    await expect.poll(() => page.getByRole('article', { name: 'Answer' }).count()).toBe(2)
    await page.locator('[data-testid=assistant-message][data-status=complete]').nth(1).waitFor()
    const second = page.getByRole('article', { name: 'Answer' }).last()
    await second.getByText(/^Sources \(\d\)$/).click()
    const quoted = await second.getByRole('list', { name: 'Sources' }).textContent()
    expect(quoted).toContain('duck identification guide')
    expect(quoted).not.toContain('](')
    expect(await second.textContent()).not.toContain('](')
    await screenshot(page, 'text-chat-link', { fullPage: false })
  })

  it('reads well in the dark and on a phone', async () => {
    await page.emulateMedia({ colorScheme: 'dark' })
    await screenshot(page, 'text-chat-link-dark', { fullPage: false })
    await search(page, 'owner')
    await screenshot(page, 'text-search-csv-dark', { fullPage: false })
    expect(await seriousViolations(page)).toEqual([])
    await page.emulateMedia({ colorScheme: 'light' })

    const phone = await browser.newContext({
      viewport: { width: 390, height: 844 },
      storageState: await page.context().storageState(),
    })
    const small = await phone.newPage()
    await search(small, 'owner')
    await screenshot(small, 'text-search-csv-phone', { fullPage: false })
    await small.emulateMedia({ colorScheme: 'dark' })
    await screenshot(small, 'text-search-csv-phone-dark', { fullPage: false })
    await search(small, 'identification guide')
    await screenshot(small, 'text-search-link-phone-dark', { fullPage: false })
    await phone.close()
  })
})
