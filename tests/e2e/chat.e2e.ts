import { join } from 'node:path'
import type { SupabaseClient } from '@supabase/supabase-js'
import type { Browser, Locator, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startFakeProvider } from '../fake-provider/server.ts'
import { signIn } from './support/app.ts'
import { seriousViolations } from './support/axe.ts'
import { sharedWorkspace, signedUpClient } from './support/accounts.ts'
import { launchBrowser, newPage, screenshot } from './support/browser.ts'
import { repoRoot } from './support/paths.ts'
import { startStack } from './support/stack.ts'

// Test data lives beside the checkout, never in it (see ../shared/data/README.md).
const wordFile = join(repoRoot, '../shared/data/docling-testdata/docx/sources/word_sample.docx')

// A long reply, so the answer is still streaming when the teammate's browser looks.
const modelReply = [
  'To get started with swimming, lay down in the water and try not to drown [1].',
  ...Array.from(
    { length: 60 },
    (_, i) => `Paddle about and enjoy the summer warmth, stroke ${i + 1} of the lake [1].`,
  ),
].join(' ')

// Issue #7's scenario: offline, an owner asks about a real document and gets a cited
// extractive answer whose citation opens the passage, highlighted. Then, with a model (a fake
// provider at the HTTP boundary), a shared conversation is open in two browsers: the streamed
// answer appears in both, and presence shows who is there and who is typing.
describe('chat', () => {
  let stack: Awaited<ReturnType<typeof startStack>>
  let fake: Awaited<ReturnType<typeof startFakeProvider>>
  let browser: Browser
  let owner: Page
  let viewer: Page
  let ownerDb: SupabaseClient
  let workspaceId = ''
  let chatUrl = ''

  async function signInAt(page: Page, email: string) {
    await page.goto(`${stack.url}/sign-in`)
    await signIn(page, email)
    await page.waitForURL((url) => url.pathname !== '/sign-in')
  }

  const answer = (page: Page) => page.getByRole('article', { name: 'Answer' }).last()
  let offlineUrl = ''
  let noAnswerUrl = ''

  /** Light and dark screenshots of the page as it is, each checked by axe. */
  async function shoot(page: Page, name: string) {
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme })
      await screenshot(page, scheme === 'light' ? name : `${name}-dark`, { fullPage: false })
      expect(await seriousViolations(page)).toEqual([])
    }
    await page.emulateMedia({ colorScheme: 'light' })
  }

  /** Whether `element` is on screen inside `frame` (a scrolling box, or the page). */
  async function withinView(element: Locator, frame: Locator) {
    const [inner, outer] = await Promise.all([element.boundingBox(), frame.boundingBox()])
    return (
      inner !== null &&
      outer !== null &&
      inner.y >= outer.y &&
      inner.y + inner.height <= Math.min(outer.y + outer.height, 844)
    )
  }

  beforeAll(async () => {
    fake = await startFakeProvider({ reply: () => modelReply })
    stack = await startStack({ OPENAI_API_KEY: 'test', OPENAI_BASE_URL: `${fake.url}/v1` })
    ownerDb = await signedUpClient(stack.url, 'Olivia Owner', 'olivia@example.com')
    const viewerDb = await signedUpClient(stack.url, 'Vic Viewer', 'vic@example.com')
    workspaceId = await sharedWorkspace(ownerDb, viewerDb, 'Duck studies', 'viewer')
    chatUrl = `${stack.url}/w/${workspaceId}/chat`
    browser = await launchBrowser()
    owner = await newPage(browser)
    viewer = await newPage(browser)
    await signInAt(owner, 'olivia@example.com')
    await signInAt(viewer, 'vic@example.com')

    // A real Word file, through the library, to ready.
    await owner.goto(`${stack.url}/w/${workspaceId}/library`)
    await owner.getByLabel('Upload files').setInputFiles(wordFile)
    const row = owner.getByRole('row', { name: /word_sample\.docx/ })
    await row.getByText('Ready').waitFor({ timeout: 90_000 })
  })

  afterAll(async () => {
    await browser?.close()
    await stack?.stop()
    await fake?.close()
  })

  it('offers questions about the workspace’s documents', async () => {
    await owner.goto(chatUrl)
    const examples = owner.getByRole('list', { name: 'Example questions' })
    await examples.waitFor()
    // From the document's title and headings, not from random passages.
    await examples
      .getByRole('button', { name: 'What does “Word Sample” say about Swimming in the lake?' })
      .waitFor()
    expect(await examples.getByRole('button').allTextContents()).toEqual(
      expect.arrayContaining(['What does “Word Sample” say about Let’s swim?']),
    )
    await shoot(owner, 'chat-empty')
  })

  it('answers offline with cited sentences, and a citation opens the highlighted passage', async () => {
    await owner
      .getByRole('textbox', { name: 'Ask a question' })
      .fill('How do I get started with swimming?')
    await owner.keyboard.press('Enter')
    await owner.waitForURL(/\/chat\/[0-9a-f-]{36}$/)
    offlineUrl = owner.url()
    await owner.locator('[data-testid=assistant-message][data-status=complete]').waitFor()
    const reply = answer(owner)
    await reply.getByText('Extracted from your documents — no AI model is configured').waitFor()
    expect(await reply.textContent()).toContain('To get started with swimming')
    // Citations are numbered 1, 2, 3… in the order the answer uses them, as the sources are.
    const numbers = await reply.getByTestId('citation-chip').allTextContents()
    const firstUse = [...new Set(numbers.map(Number))]
    expect(firstUse).toEqual(firstUse.map((_, i) => i + 1))
    // The same question over the same library would be answered the same: Regenerate says so.
    const regenerate = reply.getByRole('button', { name: 'Regenerate' })
    await expect.poll(() => regenerate.getAttribute('aria-disabled')).toBe('true')
    await shoot(owner, 'chat-offline-answer')
    await regenerate.hover()
    const why = owner.getByRole('tooltip')
    await why.waitFor()
    expect(await why.textContent()).toContain('regenerating would give this answer again')
    await screenshot(owner, 'chat-regenerate-reason', { fullPage: false })
    await owner.mouse.move(0, 0)
    await owner.keyboard.press('Escape')
    await why.waitFor({ state: 'hidden' })
    const chip = reply.getByTestId('citation-chip').first()
    expect(await chip.getAttribute('href')).toMatch(
      new RegExp(`^/w/${workspaceId}/documents/[0-9a-f-]{36}\\?chunk=[0-9a-f-]{36}$`),
    )
    const count = Number(
      /\((\d+)\)/.exec(await reply.getByText(/^Sources \(\d+\)$/).innerText())![1],
    )
    expect(count).toBe(firstUse.length)
    await reply.getByText(/^Sources \(\d\)$/).click()
    await reply.getByRole('list', { name: 'Sources' }).waitFor()
    // The preview of the last chip; a citation the check found unsupported says so.
    const last = reply.getByTestId('citation-chip').last()
    await last.hover()
    const preview = owner.getByRole('tooltip')
    await preview.waitFor()
    expect(await preview.textContent()).toContain('Word Sample')
    if ((await last.getAttribute('aria-label'))?.includes('not supported'))
      expect(await preview.textContent()).toContain('Not supported by the cited passage')
    await screenshot(owner, 'chat-citations', { fullPage: false })
    expect(await seriousViolations(owner)).toEqual([])
    await owner.emulateMedia({ colorScheme: 'dark' })
    await owner.keyboard.press('Escape')
    await preview.waitFor({ state: 'hidden' })
    await screenshot(owner, 'chat-citations-dark', { fullPage: false })
    expect(await seriousViolations(owner)).toEqual([])
    await owner.emulateMedia({ colorScheme: 'light' })

    // Issue #22: a chip opens its passage beside the conversation, which stays where it was.
    const log = owner.getByRole('log', { name: 'Messages' })
    const href = (await chip.getAttribute('href'))!
    await chip.click()
    const panel = owner.getByRole('region', { name: 'Word Sample' })
    await panel.waitFor()
    expect(new URL(owner.url()).searchParams.get('cite')).toMatch(/^[0-9a-f-]{36}:\d+$/)
    const cited = panel.locator('mark')
    await cited.first().waitFor()
    expect(await cited.first().textContent()).toContain('To get started with swimming')
    expect(await panel.textContent()).toMatch(/Source 1/)
    expect(await panel.evaluate((element) => element.contains(document.activeElement))).toBe(true)
    expect(await withinView(chip, log)).toBe(true)
    expect(await reply.isVisible()).toBe(true)
    // At this width the conversation list makes room for the panel.
    const list = owner.getByRole('complementary', { name: 'Conversation list' })
    expect(await list.isVisible()).toBe(false)
    await screenshot(owner, 'chat-citation-panel', { fullPage: false })
    expect(await seriousViolations(owner)).toEqual([])
    await owner.emulateMedia({ colorScheme: 'dark' })
    await owner.waitForFunction(() => document.documentElement.classList.contains('dark'))
    await screenshot(owner, 'chat-citation-panel-dark', { fullPage: false })
    expect(await seriousViolations(owner)).toEqual([])
    await owner.emulateMedia({ colorScheme: 'light' })
    // Escape closes it (a step back in history) and gives focus back to the chip.
    await owner.keyboard.press('Escape')
    await panel.waitFor({ state: 'detached' })
    expect(new URL(owner.url()).search).toBe('')
    expect(await chip.evaluate((element) => element === document.activeElement)).toBe(true)
    expect(await list.isVisible()).toBe(true)
    // A source opens it as well, and Back closes it.
    await reply.getByRole('list', { name: 'Sources' }).getByRole('link').first().click()
    await panel.waitFor()
    await owner.goBack()
    await panel.waitFor({ state: 'detached' })
    expect(await reply.isVisible()).toBe(true)

    // Open the full document: the document page, at the passage, highlighted.
    await chip.click()
    await panel.getByRole('link', { name: 'Open the full document' }).click()
    await owner.waitForURL(`${stack.url}${href}`)
    const marks = owner.locator('main mark')
    // Polled: once, under CI's load, the marks were read before they held the passage's text.
    await expect
      .poll(async () => (await marks.allTextContents()).join(''))
      .toContain('To get started with swimming')
    await expect.poll(() => marks.first().isVisible()).toBe(true)
  })

  it('says when no passage answers, and shows the closest passages as cards', async () => {
    await owner.goto(chatUrl)
    await owner.getByRole('textbox', { name: 'Ask a question' }).fill('sunglasses maple')
    await owner.keyboard.press('Enter')
    await owner.waitForURL(/\/chat\/[0-9a-f-]{36}$/)
    noAnswerUrl = owner.url()
    await owner.locator('[data-testid=assistant-message][data-status=complete]').waitFor()
    const reply = answer(owner)
    await reply.getByText("I couldn't find a passage that answers this.").waitFor()
    const cards = reply.getByTestId('passage-card')
    expect(await cards.count()).toBeGreaterThan(0)
    const first = cards.first()
    expect(await first.textContent()).toContain('Word Sample')
    const open = first.getByRole('link', { name: /^Open the passage in Word Sample/ })
    expect(await open.getAttribute('href')).toMatch(
      new RegExp(`^/w/${workspaceId}/documents/[0-9a-f-]{36}\\?chunk=[0-9a-f-]{36}$`),
    )
    await shoot(owner, 'chat-no-answer')
    await open.focus()
    await owner.keyboard.press('Enter')
    await owner.waitForURL(/\/documents\/[0-9a-f-]{36}\?chunk=/)
  })

  it('stops before the first token: idle at once, the question kept', async () => {
    await owner.goto(chatUrl)
    await owner.getByRole('button', { name: 'New conversation' }).first().click()
    await owner.waitForURL(/\/chat\/[0-9a-f-]{36}$/)
    // The function never answers: Stop must not wait for a first token.
    await owner.route('**/functions/v1/chat', () => {})
    await owner.getByRole('textbox', { name: 'Ask a question' }).fill('Where do ducks sleep?')
    await owner.keyboard.press('Enter')
    await owner.getByRole('button', { name: 'Stop' }).click()
    await owner.getByRole('button', { name: 'Send' }).waitFor()
    await owner.getByTestId('user-message').getByText('Where do ducks sleep?').waitFor()
    await answer(owner).getByText('Stopped').waitFor()
    expect(await answer(owner).getByRole('status').count()).toBe(0)
    await owner.unroute('**/functions/v1/chat')
  })

  it('fits a phone: starter questions, an offline answer and a no-answer', async () => {
    const phone = await browser.newContext({
      viewport: { width: 390, height: 844 },
      storageState: await owner.context().storageState(),
    })
    const page = await phone.newPage()
    await page.goto(chatUrl)
    await page.getByRole('list', { name: 'Example questions' }).waitFor()
    await shoot(page, 'phone-chat-empty')
    await page.goto(offlineUrl)
    await page.locator('[data-testid=assistant-message][data-status=complete]').waitFor()
    await shoot(page, 'phone-chat-offline-answer')
    await page.goto(noAnswerUrl)
    await page.getByTestId('passage-card').first().waitFor()
    await shoot(page, 'phone-chat-no-answer')
    await phone.close()
  })

  it('fits a phone', async () => {
    const phone = await browser.newContext({
      viewport: { width: 390, height: 844 },
      storageState: await owner.context().storageState(),
    })
    const page = await phone.newPage()
    await page.goto(chatUrl)
    await page.getByRole('button', { name: 'Conversations' }).click()
    await page
      .getByRole('dialog')
      .getByRole('link', { name: /get started with swimming/ })
      .click()
    await page.locator('[data-testid=assistant-message][data-status=complete]').waitFor()
    await page.getByRole('dialog').waitFor({ state: 'detached', timeout: 5_000 })
    await page.getByRole('textbox', { name: 'Ask a question' }).waitFor()
    expect(await page.getByRole('textbox', { name: 'Ask a question' }).isVisible()).toBe(true)
    await screenshot(page, 'phone-chat', { fullPage: false })
    expect(await seriousViolations(page)).toEqual([])

    // Issue #22: on a phone a citation opens in a sheet; the conversation keeps its place.
    const log = page.getByRole('log', { name: 'Messages' })
    const chip = page.getByTestId('citation-chip').first()
    await chip.scrollIntoViewIfNeeded()
    const scrolled = await log.evaluate((element) => element.scrollTop)
    await chip.click()
    const sheet = page.getByRole('dialog', { name: 'Word Sample' })
    await sheet.locator('mark').first().waitFor()
    // The sheet slides up: measure where it comes to rest.
    await sheet.evaluate((element) =>
      Promise.all(element.getAnimations({ subtree: true }).map((a) => a.finished)),
    )
    expect(await sheet.evaluate((element) => element.contains(document.activeElement))).toBe(true)
    const full = sheet.getByRole('link', { name: 'Open the full document' })
    expect(await full.isVisible()).toBe(true)
    expect(await withinView(full, page.locator('body'))).toBe(true)
    await screenshot(page, 'phone-citation-sheet', { fullPage: false })
    expect(await seriousViolations(page)).toEqual([])
    await page.emulateMedia({ colorScheme: 'dark' })
    await page.waitForFunction(() => document.documentElement.classList.contains('dark'))
    await screenshot(page, 'phone-citation-sheet-dark', { fullPage: false })
    expect(await seriousViolations(page)).toEqual([])
    await page.emulateMedia({ colorScheme: 'light' })
    await page.goBack()
    await sheet.waitFor({ state: 'detached' })
    expect(await log.evaluate((element) => element.scrollTop)).toBe(scrolled)
    expect(await withinView(chip, log)).toBe(true)
    await phone.close()
  })

  it('streams a model’s answer to everyone in a shared conversation, with presence', async () => {
    const { error } = await ownerDb
      .from('workspaces')
      .update({ chat_model: 'openai:gpt-4.1-mini' })
      .eq('id', workspaceId)
    expect(error).toBeNull()

    await owner.goto(chatUrl)
    await owner.getByRole('button', { name: 'New conversation' }).first().click()
    await owner.waitForURL(/\/chat\/[0-9a-f-]{36}$/)
    const url = owner.url()
    await viewer.goto(chatUrl)
    await viewer.getByText('No conversations yet.').waitFor()
    await owner.getByRole('button', { name: 'Share' }).click()
    await owner.getByText('Shared with the workspace').waitFor()

    // It appears in the teammate's list live, with who started it.
    const shared = viewer.getByRole('navigation', { name: 'Conversations' }).getByRole('link')
    await shared.getByText('by Olivia Owner').waitFor()
    await shared.click()
    await viewer.waitForURL(url)
    await viewer.getByText('Shared by Olivia Owner').waitFor()
    // Both are here, on both screens.
    for (const page of [owner, viewer]) {
      const here = page.getByRole('list', { name: 'Here now' })
      await here.getByRole('listitem', { name: /Olivia Owner/ }).waitFor()
      await here.getByRole('listitem', { name: /Vic Viewer/ }).waitFor()
    }
    await viewer.getByRole('textbox', { name: 'Ask a question' }).pressSequentially('Is the lake')
    await owner.getByText('Vic Viewer is typing…').waitFor()
    await viewer.getByRole('textbox', { name: 'Ask a question' }).fill('')
    await owner.getByText('Vic Viewer is typing…').waitFor({ state: 'hidden' })

    // The teammate sees the answer while it is still streaming, not only once stored.
    const seenStreaming = viewer.waitForFunction(
      () =>
        [
          ...document.querySelectorAll('[data-testid=assistant-message][data-status=streaming]'),
        ].some((a) => a.textContent?.includes('Paddle about')),
      undefined,
      { polling: 'raf', timeout: 30_000 },
    )
    await owner
      .getByRole('textbox', { name: 'Ask a question' })
      .fill('How do I get started with swimming?')
    await owner.keyboard.press('Enter')
    await seenStreaming
    for (const page of [owner, viewer]) {
      await page.locator('[data-testid=assistant-message][data-status=complete]').waitFor()
      const text = await answer(page).textContent()
      expect(text).toContain('stroke 60 of the lake')
      expect(text).not.toContain('Extracted from your documents')
      await page
        .getByTestId('user-message')
        .getByText('How do I get started with swimming?')
        .waitFor()
    }
    expect(await answer(viewer).getByTestId('citation-chip').count()).toBeGreaterThan(0)
    // The viewer sees who asked; only the asker may regenerate.
    await viewer.getByTestId('user-message').getByText('Olivia Owner').waitFor()
    expect(await viewer.getByRole('button', { name: 'Regenerate' }).count()).toBe(0)
    await screenshot(viewer, 'chat-shared', { fullPage: false })
    expect(fake.requests.filter((r) => r.kind === 'chat').length).toBeGreaterThan(0)
  })

  it('stops an answer, keeping what was written, and regenerates it; a provider error shows inline', async () => {
    // The teammate scrolls up to read: new messages must not pull them down.
    const log = viewer.getByRole('log', { name: 'Messages' })
    await log.evaluate((element) => (element.scrollTop = 0))
    await viewer.getByRole('button', { name: 'Latest' }).waitFor()

    const composer = owner.getByRole('textbox', { name: 'Ask a question' })
    await composer.fill('And then?')
    await owner.keyboard.press('Enter')
    await answer(owner)
      .getByText(/Paddle about/)
      .first()
      .waitFor()
    await owner.getByRole('button', { name: 'Stop' }).click()
    await answer(owner).getByText('Stopped').waitFor()
    await viewer.locator('[data-testid=assistant-message][data-status=stopped]').waitFor()
    expect(await log.evaluate((element) => element.scrollTop)).toBe(0)
    await viewer.getByRole('button', { name: 'Latest' }).click()
    await expect
      .poll(() => log.evaluate((e) => e.scrollHeight - e.scrollTop - e.clientHeight))
      .toBeLessThan(5)
    await viewer.getByText('Stopped').waitFor()
    expect(await answer(owner).textContent()).not.toContain('stroke 60 of the lake')
    // Sending is possible again at once.
    await owner.getByRole('button', { name: 'Send' }).waitFor()

    await owner.getByRole('button', { name: 'Regenerate' }).click()
    await owner.locator('[data-testid=assistant-message][data-status=complete]').nth(1).waitFor()
    expect(await answer(owner).textContent()).toContain('stroke 60 of the lake')
    expect(await owner.getByText('Stopped').count()).toBe(0)
    expect(await owner.getByTestId('user-message').count()).toBe(2)

    fake.script({ kind: 'chat', fail: 'rate_limit', times: 10 })
    await composer.fill('One more?')
    await owner.keyboard.press('Enter')
    const failed = owner.locator('[data-testid=assistant-message][data-status=failed]')
    await failed.getByRole('alert').waitFor()
    expect(await failed.getByRole('alert').textContent()).toMatch(/rate|limit|too many/i)
    await viewer.locator('[data-testid=assistant-message][data-status=failed]').waitFor()
    // Stored: still there after a reload.
    await owner.reload()
    await owner
      .locator('[data-testid=assistant-message][data-status=failed]')
      .getByRole('alert')
      .waitFor()
    fake.reset()
  })
})
