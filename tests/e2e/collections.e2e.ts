import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ingestFile } from '../../packages/core/src/ingest/ingest-file.ts'
import { signIn } from './support/app.ts'
import { seriousViolations } from './support/axe.ts'
import { signedUpClient } from './support/accounts.ts'
import { launchBrowser, newPage, screenshot } from './support/browser.ts'
import { startStack } from './support/stack.ts'

// Four notes, one of them a canary that matches the question: a conversation kept to the
// others must never cite it. The app names them by their readable titles (Herbarium Notes).
const notes = {
  'Herbarium notes.md':
    '# Herbarium\n\nThe mangrove samples from the estuary were dried slowly over three weeks to keep their leaves intact.\n',
  'Voyage log.md':
    '# Voyage\n\nWe anchored near the estuary at dawn, and the crew carried the mangrove samples ashore in wet sacks.\n',
  'Tide table.md': '# Tides\n\nHigh water at the harbour reaches four metres in spring.\n',
  'Canary memo.md':
    '# Canary\n\nCANARY: the mangrove samples from the estuary were dried in an oven, the canary says.\n',
}

// Issue #20's scenario: an owner makes a collection from a multi-row selection in the
// library, starts a conversation kept to it, @-mentions a second document, and gets a cited
// answer drawing on both, from inside the scope only.
describe('collections', () => {
  let stack: Awaited<ReturnType<typeof startStack>>
  let browser: Browser
  let page: Page
  let libraryUrl = ''
  let owner: Awaited<ReturnType<typeof signedUpClient>>
  let workspaceId = ''

  /** Light and dark screenshots of the page as it is, each checked by axe. */
  async function shoot(on: Page, name: string) {
    for (const scheme of ['light', 'dark'] as const) {
      await on.emulateMedia({ colorScheme: scheme })
      await screenshot(on, scheme === 'light' ? name : `${name}-dark`, { fullPage: false })
      expect(await seriousViolations(on)).toEqual([])
    }
    await on.emulateMedia({ colorScheme: 'light' })
  }

  beforeAll(async () => {
    stack = await startStack()
    owner = await signedUpClient(stack.url, 'Cleo Curator', 'cleo@example.com')
    const { data: workspace, error } = await owner
      .from('workspaces')
      .insert({ name: 'Expedition archive' })
      .select('id')
      .single()
    if (error) throw error
    for (const [fileName, text] of Object.entries(notes)) {
      const result = await ingestFile(owner, {
        workspaceId: workspace.id,
        bytes: new TextEncoder().encode(text),
        fileName,
        mimeType: 'text/markdown',
      })
      expect(result.status, JSON.stringify(result)).toBe('ready')
    }
    workspaceId = workspace.id
    libraryUrl = `${stack.url}/w/${workspace.id}/library`
    browser = await launchBrowser()
    page = await newPage(browser)
    await page.goto(`${stack.url}/sign-in`)
    await signIn(page, 'cleo@example.com')
    await page.waitForURL((url) => url.pathname !== '/sign-in')
  })

  afterAll(async () => {
    await browser?.close()
    await stack?.stop()
  })

  it('makes a collection from a multi-row selection', async () => {
    await page.goto(libraryUrl)
    await page.getByRole('checkbox', { name: 'Select Herbarium Notes' }).check()
    await page.getByRole('checkbox', { name: 'Select Tide Table' }).check()
    const selection = page.getByRole('region', { name: 'Selected documents' })
    await selection.getByText('2 documents selected').waitFor()
    await shoot(page, 'collections-selection')

    await selection.getByRole('button', { name: 'Add to collection' }).click()
    await page.getByRole('menuitem', { name: 'New collection…' }).click()
    const dialog = page.getByRole('dialog', { name: 'New collection' })
    await dialog.getByLabel('Name').fill('Field trip')
    // The colours are a radio group: arrow keys move through them.
    await dialog.getByRole('radio', { name: 'Blue' }).focus()
    await page.keyboard.press('ArrowRight')
    expect(await dialog.getByRole('radio', { name: 'Indigo' }).isChecked()).toBe(true)
    await dialog.getByLabel('Description').fill('What the 1911 expedition brought back')
    await shoot(page, 'collections-new-dialog')
    await dialog.getByRole('button', { name: 'Create collection' }).click()
    const added = page.getByText('Added 2 documents to Field trip')
    await added.waitFor()

    const bar = page.getByRole('region', { name: 'Collections' })
    const filter = bar.getByRole('button', { name: /Field trip\s*2/ })
    await filter.waitFor()
    // The rows say which collections they are in.
    await page
      .getByRole('row', { name: /Herbarium Notes/ })
      .getByText('Field trip')
      .waitFor()
    await filter.click()
    await expect
      .poll(() => page.getByRole('table', { name: 'Documents' }).getByRole('link').count())
      .toBe(2)
    // The toast gone, so the screenshot shows the page (and axe checks it, not a fade).
    await added.waitFor({ state: 'hidden', timeout: 10_000 })
    await shoot(page, 'collections-library')
  })

  it('uploads files dropped on a collection into it', async () => {
    const bar = page.getByRole('region', { name: 'Collections' })
    const dataTransfer = await page.evaluateHandle(() => {
      const files = new DataTransfer()
      files.items.add(
        new File(['# Sketches\n\nPencil drawings of seabirds, made on deck.\n'], 'Sketches.md', {
          type: 'text/markdown',
        }),
      )
      return files
    })
    const target = bar.getByRole('button', { name: /^Field trip\s*\d+$/ })
    await target.dispatchEvent('dragenter', { dataTransfer })
    await target.dispatchEvent('dragover', { dataTransfer })
    await target.dispatchEvent('drop', { dataTransfer })
    const added = page.getByText('Added 1 document to Field trip')
    await added.waitFor({ timeout: 60_000 })
    await bar.getByRole('button', { name: /Field trip\s*3/ }).waitFor()
    await page
      .getByRole('row', { name: /Sketches/ })
      .getByText('Field trip')
      .waitFor()
    await added.waitFor({ state: 'hidden', timeout: 10_000 })
  })

  it('starts a conversation kept to the collection, adds a document by @, and answers from both only', async () => {
    await page.getByRole('button', { name: 'Ask about Field trip' }).click()
    await page.waitForURL(/\/chat\/[0-9a-f-]{36}$/)
    const chips = page.getByRole('list', { name: 'Answers from' })
    await chips.getByText('Field trip').waitFor()
    // The questions it suggests are about what it answers from.
    const examples = page.getByRole('list', { name: 'Example questions' })
    await examples.getByRole('button', { name: /Herbarium notes/i }).waitFor()
    expect(await examples.textContent()).not.toContain('Canary')

    // @ and a few letters offer the voyage log; arrows and Enter add it to the scope.
    const box = page.getByRole('textbox', { name: 'Ask a question' })
    await box.pressSequentially('How were the mangrove samples from the estuary dried? @voy', {
      delay: 20,
    })
    const list = page.getByRole('listbox', { name: 'Add to what this conversation answers from' })
    await list.getByRole('option', { name: /Voyage Log/ }).waitFor()
    await shoot(page, 'collections-mention')
    await page.keyboard.press('Enter')
    await chips.getByText('Voyage Log').waitFor()
    expect(await box.inputValue()).toBe('How were the mangrove samples from the estuary dried? ')
    await page.keyboard.press('Enter')
    await page.locator('[data-testid=assistant-message][data-status=complete]').waitFor()
    const answer = page.getByRole('article', { name: 'Answer' }).last()
    const text = (await answer.textContent()) ?? ''
    expect(text).toContain('dried slowly over three weeks')
    expect(text).not.toContain('CANARY')
    expect(await answer.getByTestId('citation-chip').count()).toBeGreaterThan(0)
    await answer.getByText(/^Sources \(\d+\)$/).click()
    const sources = answer.getByRole('list', { name: 'Sources' })
    expect(await sources.textContent()).not.toContain('Canary Memo')
    expect(await sources.textContent()).toContain('Herbarium Notes')
    expect(await sources.textContent()).toContain('Voyage Log')
    await shoot(page, 'collections-scoped-chat')

    // Reloaded, the scope is still there.
    await page.reload()
    await page.getByRole('list', { name: 'Answers from' }).getByText('Field trip').waitFor()
  })

  it('fits a phone', async () => {
    const phone = await newPage(browser, { viewport: { width: 390, height: 844 } })
    await phone.goto(`${stack.url}/sign-in`)
    await signIn(phone, 'cleo@example.com')
    await phone.waitForURL((url) => url.pathname !== '/sign-in')
    const chatUrl = page.url()
    await phone.goto(libraryUrl)
    await phone.getByRole('checkbox', { name: 'Select Canary Memo' }).check()
    await phone.getByRole('region', { name: 'Selected documents' }).waitFor()
    await shoot(phone, 'collections-library-phone')
    await phone.goto(chatUrl)
    await phone.getByRole('list', { name: 'Answers from' }).getByText('Field trip').waitFor()
    await shoot(phone, 'collections-scoped-chat-phone')
    await phone.context().close()
  })

  it('keeps the selection bar below the Reconnecting bar and the phone top bar, scrolled', async () => {
    // A library long enough to scroll on a desktop, so the selection bar sticks.
    for (let day = 1; day <= 16; day++) {
      const result = await ingestFile(owner, {
        workspaceId,
        bytes: new TextEncoder().encode(`# Day ${day}\n\nThe crew logged the tide at dawn.\n`),
        fileName: `Deck log day ${day}.md`,
        mimeType: 'text/markdown',
      })
      expect(result.status, JSON.stringify(result)).toBe('ready')
    }
    const phone = await newPage(browser, { viewport: { width: 390, height: 844 } })
    await phone.goto(`${stack.url}/sign-in`)
    await signIn(phone, 'cleo@example.com')
    await phone.waitForURL((url) => url.pathname !== '/sign-in')
    const pages = { desktop: page, phone }
    for (const on of Object.values(pages)) {
      await on.goto(libraryUrl)
      await on.getByRole('checkbox', { name: 'Select Deck Log Day 1', exact: true }).check()
      await on.getByRole('region', { name: 'Selected documents' }).waitFor()
      await on.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight))
    }
    const box = (on: Page, locator: ReturnType<Page['locator']>) =>
      locator.evaluate((e) => e.getBoundingClientRect().toJSON() as DOMRect)
    await stack.halt()
    try {
      for (const [name, on] of Object.entries(pages)) {
        const reconnecting = on.getByText('Reconnecting…')
        await reconnecting.waitFor({ timeout: 30_000 })
        const offline = await box(on, reconnecting)
        const selection = await box(on, on.getByRole('region', { name: 'Selected documents' }))
        // Scrolled down, the bar is stuck, not where the page put it.
        expect(await on.evaluate(() => window.scrollY)).toBeGreaterThan(0)
        expect(selection.top, name).toBeGreaterThanOrEqual(offline.bottom)
        if (on === phone) {
          const topBar = await box(on, on.getByRole('button', { name: 'Open menu' }).locator('..'))
          expect(offline.bottom).toBeLessThanOrEqual(topBar.top)
          expect(selection.top).toBeGreaterThanOrEqual(topBar.bottom)
        }
        await shoot(on, `collections-selection-offline-${name}`)
      }
    } finally {
      await stack.restart()
    }
    await phone.getByText('Reconnecting…').waitFor({ state: 'detached', timeout: 30_000 })
    await phone.context().close()
  })
})
