import type { SupabaseClient } from '@supabase/supabase-js'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { connectMcp, textOf } from '../../supabase/tests/mcp-client.ts'
import { signIn } from './support/app.ts'
import { seriousViolations } from './support/axe.ts'
import { signedUpClient } from './support/accounts.ts'
import { launchBrowser, newPage, screenshot } from './support/browser.ts'
import { startStack } from './support/stack.ts'

// Issue #18's scenario: a member creates an access token in Settings, copies it, and an MCP
// client built from the official SDK answers a question with citations through it.
describe('access tokens and MCP', () => {
  let stack: Awaited<ReturnType<typeof startStack>>
  let browser: Browser
  let page: Page
  let db: SupabaseClient
  let workspaceId = ''

  /** Light and dark screenshots, each checked by axe. */
  async function shoot(target: Page, name: string, fullPage = true) {
    for (const scheme of ['light', 'dark'] as const) {
      await target.emulateMedia({ colorScheme: scheme })
      await screenshot(target, scheme === 'light' ? name : `${name}-dark`, { fullPage })
      expect(await seriousViolations(target)).toEqual([])
    }
    await target.emulateMedia({ colorScheme: 'light' })
  }

  beforeAll(async () => {
    stack = await startStack()
    db = await signedUpClient(stack.url, 'Mina Member', 'mina@example.com')
    const workspace = await db.from('workspaces').insert({ name: 'Herbarium' }).select().single()
    if (workspace.error) throw workspace.error
    workspaceId = workspace.data.id
    const doc = await db
      .from('documents')
      .insert({ workspace_id: workspaceId, title: 'Drying notes', status: 'ready', stage: 'ready' })
      .select('id')
      .single()
    if (doc.error) throw doc.error
    const chunks = await db.from('chunks').insert([
      {
        document_id: doc.data.id,
        workspace_id: workspaceId,
        ordinal: 0,
        content: 'The mangrove samples were dried slowly in the shade to keep their leaves intact.',
        page_start: 4,
        page_end: 4,
      },
    ])
    if (chunks.error) throw chunks.error
    browser = await launchBrowser()
    page = await newPage(browser)
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], {
      origin: stack.url,
    })
    await page.goto(`${stack.url}/sign-in`)
    await signIn(page, 'mina@example.com')
    await page.waitForURL((url) => url.pathname !== '/sign-in')
  })

  afterAll(async () => {
    await browser?.close()
    await stack?.stop()
  })

  it('shows the settings with no tokens yet', async () => {
    await page.goto(`${stack.url}/w/${workspaceId}/settings`)
    await page.getByText('You have no tokens for this workspace yet.').waitFor()
    await shoot(page, 'access-tokens-empty')
  })

  it('creates a token, copies it, and an MCP client answers with citations through it', async () => {
    await page.getByRole('button', { name: 'Create token' }).click()
    const dialog = page.getByRole('dialog', { name: 'Create an access token' })
    await dialog.getByLabel('Name').fill('Claude Desktop')
    await shoot(page, 'access-tokens-create', false)
    await dialog.getByRole('button', { name: 'Create token' }).click()
    const shown = page.getByRole('dialog', { name: 'Copy your token' })
    await shown.getByRole('button', { name: 'Copy access token' }).click()
    await shown.getByRole('status').getByText('Copied').waitFor()
    await shoot(page, 'access-tokens-created', false)
    const token = await page.evaluate(() => navigator.clipboard.readText())
    expect(token).toMatch(/^sbk_/)
    await shown.getByRole('button', { name: 'Done' }).click()

    const client = await connectMcp(stack.url, token)
    const result = (await client.callTool({
      name: 'ask',
      arguments: { question: 'How were the mangrove samples dried?' },
    })) as unknown as {
      structuredContent: { answer: string; citations: { n: number; title: string }[] }
    }
    expect(result.structuredContent.answer).toMatch(/dried slowly in the shade.*\[1\]/)
    expect(result.structuredContent.citations[0]).toMatchObject({ n: 1, title: 'Drying notes' })
    expect(textOf(result)).toContain('[1] Drying notes, p. 4')
    await client.close()

    // The list shows the use.
    await page.reload()
    const row = page.getByRole('listitem').filter({ hasText: 'Claude Desktop' })
    await row.getByText(/Last used/).waitFor()
  })

  it('tests a token and shows the client configurations', async () => {
    const token = await page.evaluate(() => navigator.clipboard.readText())
    await page.getByLabel('Test a token').fill(token)
    await page.getByRole('button', { name: 'Test connection' }).click()
    await page.getByText(/Connected to Sourcebook\. Clients will see 5 tools/).waitFor()
    await page.getByRole('button', { name: 'Cursor' }).click()
    await page
      .getByLabel('Cursor configuration')
      .getByText(/functions\/v1\/mcp/)
      .waitFor()
    await shoot(page, 'access-tokens')
  })

  it('fits a phone', async () => {
    const phone = await newPage(browser, {
      viewport: { width: 390, height: 844 },
      storageState: await page.context().storageState(),
    })
    await phone.goto(`${stack.url}/w/${workspaceId}/settings`)
    await phone.getByRole('listitem').filter({ hasText: 'Claude Desktop' }).waitFor()
    await shoot(phone, 'phone-access-tokens')
    // The snippet scrolls inside its box rather than widening the page.
    const width = await phone.evaluate(() => document.documentElement.scrollWidth)
    expect(width).toBeLessThanOrEqual(390)
    await phone.getByRole('button', { name: 'Create token' }).click()
    await phone.getByRole('dialog', { name: 'Create an access token' }).waitFor()
    await shoot(phone, 'phone-access-tokens-create', false)
    await phone.keyboard.press('Escape')
    // Focus goes back to the button that opened the dialog.
    await phone.getByRole('button', { name: 'Create token' }).and(phone.locator(':focus')).waitFor()
  })

  it('revokes the token: the client is refused', async () => {
    const token = await page.evaluate(() => navigator.clipboard.readText())
    await page.getByRole('button', { name: 'Revoke Claude Desktop' }).click()
    await page.getByRole('alertdialog').getByRole('button', { name: 'Revoke' }).click()
    await page.getByText(/is revoked/).waitFor()
    await page
      .getByRole('listitem')
      .filter({ hasText: 'Claude Desktop' })
      .getByText('Revoked')
      .first()
      .waitFor()
    await expect(connectMcp(stack.url, token)).rejects.toMatchObject({ code: 401 })
  })
})
