import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startFakeProvider } from '../fake-provider/server.ts'
import { signIn } from './support/app.ts'
import { seriousViolations } from './support/axe.ts'
import { signedUpClient } from './support/accounts.ts'
import { launchBrowser, newPage, screenshot } from './support/browser.ts'
import { startStack } from './support/stack.ts'

// Settings → AI models with a provider that has chat models and a rerank model (a fake one
// at the HTTP boundary): an owner chooses the reranking with the keyboard, on a desktop and
// on a phone, in both themes.
describe('AI models settings', () => {
  let stack: Awaited<ReturnType<typeof startStack>>
  let fake: Awaited<ReturnType<typeof startFakeProvider>>
  let browser: Browser
  let settingsUrl = ''

  async function shoot(page: Page, name: string) {
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme })
      await screenshot(page, scheme === 'light' ? name : `${name}-dark`)
      expect(await seriousViolations(page)).toEqual([])
    }
    await page.emulateMedia({ colorScheme: 'light' })
  }

  async function openSettings(viewport: { width: number; height: number }) {
    const page = await newPage(browser, { viewport })
    await page.goto(`${stack.url}/sign-in`)
    await signIn(page, 'olga@example.com')
    await page.waitForURL((url) => url.pathname !== '/sign-in')
    await page.goto(settingsUrl)
    await page.getByRole('combobox', { name: 'Reranking' }).waitFor()
    return page
  }

  beforeAll(async () => {
    fake = await startFakeProvider()
    stack = await startStack({
      OPENAI_API_KEY: 'test',
      OPENAI_BASE_URL: `${fake.url}/v1`,
      OPENAI_COMPATIBLE_BASE_URL: `${fake.url}/v1`,
      OPENAI_COMPATIBLE_RERANK_MODEL: 'bge-reranker-v2-m3',
    })
    const owner = await signedUpClient(stack.url, 'Olga Owner', 'olga@example.com')
    const { data, error } = await owner
      .from('workspaces')
      .insert({ name: 'Annual reports', chat_model: 'openai:gpt-4.1-mini' })
      .select('id')
      .single()
    if (error) throw error
    settingsUrl = `${stack.url}/w/${data.id}/settings`
    browser = await launchBrowser()
  })

  afterAll(async () => {
    await browser?.close()
    await stack?.stop()
    await fake?.close()
  })

  it('lets an owner choose the chat model as judge with the keyboard', async () => {
    const page = await openSettings({ width: 1280, height: 800 })
    const reranking = page.getByRole('combobox', { name: 'Reranking' })
    expect(await reranking.textContent()).toContain('Off — the search order')
    await shoot(page, 'ai-settings-reranking')

    await reranking.focus()
    await page.keyboard.press('Enter')
    const options = page.getByRole('option')
    await options.first().waitFor()
    expect(await options.allTextContents()).toEqual([
      'Off — the search order',
      'Chat model as judge',
      'Rerank model: bge-reranker-v2-m3 (OpenAI-compatible)',
    ])
    // A full-page shot resizes the window, which closes a Radix select: the viewport only.
    await screenshot(page, 'ai-settings-reranking-open', { fullPage: false })
    // Radix moves focus into the list a moment after it opens, and keys pressed before that
    // are lost: each key waits until the option it acts on has focus.
    const focused = (name: string) => page.getByRole('option', { name }).and(page.locator(':focus'))
    await focused('Off — the search order').waitFor()
    // The save held back a second, as a busy server answers: the select must keep the focus
    // the closing list hands back while the save is under way.
    await page.route('**/rest/v1/workspaces?*', async (route) => {
      if (route.request().method() === 'PATCH') await new Promise((r) => setTimeout(r, 1000))
      await route.continue()
    })
    await page.keyboard.press('ArrowDown')
    await focused('Chat model as judge').waitFor()
    await page.keyboard.press('Enter')
    await page.getByText('Reranking saved').waitFor()
    await expect.poll(() => reranking.textContent()).toContain('Chat model as judge')
    // The list closes back onto its trigger.
    await expect
      .poll(() => reranking.evaluate((el) => el === document.activeElement), { timeout: 10_000 })
      .toBe(true)
    await page.getByText('Reranking saved').waitFor({ state: 'hidden', timeout: 10_000 })
    await page.context().close()
  })

  it('fits a phone', async () => {
    const page = await openSettings({ width: 390, height: 844 })
    const reranking = page.getByRole('combobox', { name: 'Reranking' })
    expect(await reranking.textContent()).toContain('Chat model as judge')
    const box = await reranking.boundingBox()
    expect(box!.x + box!.width).toBeLessThanOrEqual(390)
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390)
    await shoot(page, 'ai-settings-reranking-phone')
    await page.context().close()
  })
})
