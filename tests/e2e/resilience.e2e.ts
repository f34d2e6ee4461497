import type { SupabaseClient } from '@supabase/supabase-js'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { signIn } from './support/app.ts'
import { seriousViolations } from './support/axe.ts'
import { sharedWorkspace, signedUpClient } from './support/accounts.ts'
import { launchBrowser, newPage, screenshot } from './support/browser.ts'
import { startStack } from './support/stack.ts'

// Issue #22: nothing is lost when something goes wrong. The server is stopped and started
// again by the test (same port, same data), mid-upload and mid-question; and a shared
// conversation is deleted while a teammate has it open.
describe('resilience', () => {
  let stack: Awaited<ReturnType<typeof startStack>>
  let browser: Browser
  let owner: Page
  let viewer: Page
  let ownerDb: SupabaseClient
  let workspaceId = ''

  async function signInAt(page: Page, email: string) {
    await page.goto(`${stack.url}/sign-in`)
    await signIn(page, email)
    await page.waitForURL((url) => url.pathname !== '/sign-in')
  }

  const banner = (page: Page) => page.getByText('Reconnecting…')

  beforeAll(async () => {
    stack = await startStack()
    ownerDb = await signedUpClient(stack.url, 'Olivia Owner', 'olivia@example.com')
    const viewerDb = await signedUpClient(stack.url, 'Vic Viewer', 'vic@example.com')
    workspaceId = await sharedWorkspace(ownerDb, viewerDb, 'Duck studies', 'viewer')
    browser = await launchBrowser()
    owner = await newPage(browser)
    viewer = await newPage(browser)
    await signInAt(owner, 'olivia@example.com')
    await signInAt(viewer, 'vic@example.com')
  })

  afterAll(async () => {
    await browser?.close()
    await stack?.stop()
  })

  it('refuses a PNG at drop time, and resumes an upload cut by an outage, indexing it once', async () => {
    await owner.goto(`${stack.url}/w/${workspaceId}/library`)
    const uploads = owner.getByRole('region', { name: 'Uploads' })
    await owner.getByLabel('Upload files').setInputFiles({
      name: 'floor plan.png',
      mimeType: 'image/png',
      buffer: Buffer.from('\x89PNG\r\n\x1a\n'),
    })
    const png = uploads.getByRole('listitem', { name: 'floor plan.png' })
    expect(await png.getByRole('alert').textContent()).toContain('.png files are not supported')
    await png.getByRole('button', { name: 'Dismiss floor plan.png' }).click()

    const lines = Array.from(
      { length: 140_000 },
      (_, i) => `Lap ${i}: the duck swims ${i % 97} lengths of the lake.\n`,
    )
    const buffer = Buffer.from(lines.join(''))
    expect(buffer.length).toBeGreaterThan(6 * 2 ** 20)
    const tus: string[] = []
    owner.context().on('request', (request) => {
      if (request.url().includes('/storage/v1/upload/resumable')) tus.push(request.method())
    })
    // The server goes down as the first chunk after the upload's creation is sent.
    let cut = false
    await owner.context().route('**/storage/v1/upload/resumable/**', async (route) => {
      if (!cut && route.request().method() === 'PATCH') {
        cut = true
        await stack.halt()
      }
      await route.continue().catch(() => route.abort('connectionrefused'))
    })
    await owner.getByLabel('Upload files').setInputFiles({
      name: 'laps.txt',
      mimeType: 'text/plain',
      buffer,
    })
    const item = uploads.getByRole('listitem', { name: 'laps.txt' })
    await item.getByRole('alert').waitFor({ timeout: 60_000 })
    expect(await item.getByRole('alert').textContent()).toContain(
      'Lost the connection to the server',
    )
    expect(await item.getByRole('alert').textContent()).not.toMatch(/TypeError|fetch|tus/)
    await banner(owner).waitFor()
    await screenshot(owner, 'upload-failed-offline', { fullPage: false })
    await owner.context().unrouteAll()

    await stack.restart()
    await banner(owner).waitFor({ state: 'detached', timeout: 30_000 })
    const beforeRetry = tus.length
    await item.getByRole('button', { name: 'Retry laps.txt' }).click()
    const row = owner.getByRole('row', { name: /laps\.txt/ })
    await row.getByText('Ready').waitFor({ timeout: 180_000 })

    // Resumed: the server was asked for its offset, and no second upload was created.
    const retried = tus.slice(beforeRetry)
    expect(retried).toContain('HEAD')
    expect(retried).not.toContain('POST')
    const { data: documents, error } = await ownerDb
      .from('documents')
      .select('id, status, storage_path, size_bytes')
      .eq('workspace_id', workspaceId)
    if (error) throw error
    expect(documents).toHaveLength(1)
    expect(documents[0]).toMatchObject({ status: 'ready', size_bytes: buffer.length })
    const stored = await ownerDb.storage.from('documents').download(documents[0]!.storage_path)
    expect(stored.data?.size).toBe(buffer.length)
    // Finished uploads fold into one line after a moment.
    await uploads.getByText('1 uploaded').waitFor({ timeout: 10_000 })
    await owner.emulateMedia({ colorScheme: 'dark' })
    await owner.setViewportSize({ width: 390, height: 844 })
    await screenshot(owner, 'upload-collapsed-dark-phone', { fullPage: false })
    await owner.emulateMedia({ colorScheme: 'light' })
    await owner.setViewportSize({ width: 1280, height: 800 })
  })

  it('keeps a question asked while the server is down, and sends it when it is back', async () => {
    const { data: conversation, error } = await ownerDb
      .from('conversations')
      .insert({ workspace_id: workspaceId, title: 'Laps' })
      .select('id')
      .single()
    if (error) throw error
    await owner.goto(`${stack.url}/w/${workspaceId}/chat/${conversation.id}`)
    const composer = owner.getByRole('textbox', { name: 'Ask a question' })
    const question = 'How many lengths does the duck swim?'
    await composer.fill(question)

    await stack.halt()
    await composer.press('Enter')
    const unsent = owner.getByRole('region', { name: 'Question not sent' })
    await unsent.waitFor()
    expect(await unsent.textContent()).toContain(question)
    expect(await unsent.getByRole('alert').textContent()).toContain(
      'Lost the connection to the server',
    )
    await banner(owner).waitFor()
    await unsent.getByRole('button', { name: 'Send when back' }).waitFor()
    await screenshot(owner, 'chat-offline-light', { fullPage: false })
    await owner.setViewportSize({ width: 390, height: 844 })
    // On a phone the banner sits above the top bar, never over the workspace name.
    const bannerBox = await banner(owner).boundingBox()
    const nameBox = await owner
      .getByTitle('Duck studies', { exact: true })
      .filter({ visible: true })
      .boundingBox()
    expect(bannerBox!.y + bannerBox!.height).toBeLessThanOrEqual(nameBox!.y)
    await screenshot(owner, 'chat-offline-light-phone', { fullPage: false })
    await owner.emulateMedia({ colorScheme: 'dark' })
    await screenshot(owner, 'chat-offline-dark-phone', { fullPage: false })
    await owner.setViewportSize({ width: 1280, height: 800 })
    await screenshot(owner, 'chat-offline-dark', { fullPage: false })
    await owner.emulateMedia({ colorScheme: 'light' })

    await stack.restart()
    await banner(owner).waitFor({ state: 'detached', timeout: 30_000 })
    await unsent.getByRole('button', { name: 'Retry' }).click()
    await owner.locator('[data-testid=assistant-message][data-status=complete]').waitFor({
      timeout: 60_000,
    })
    expect(await owner.getByTestId('user-message').textContent()).toContain(question)
    expect(await unsent.count()).toBe(0)

    // Down again: this time the person asks for it to go as soon as the server is back.
    await stack.halt()
    await composer.fill('And how many laps?')
    await composer.press('Enter')
    await unsent.getByRole('button', { name: 'Send when back' }).click()
    expect(await unsent.getByRole('alert').textContent()).toBe(
      'It will be sent when the connection is back.',
    )
    await stack.restart()
    await owner
      .locator('[data-testid=assistant-message][data-status=complete]')
      .nth(1)
      .waitFor({ timeout: 60_000 })
    expect(await owner.getByTestId('user-message').nth(1).textContent()).toContain('laps')
    expect(await unsent.count()).toBe(0)
    const { data: messages } = await ownerDb
      .from('messages')
      .select('role')
      .eq('conversation_id', conversation.id)
    expect(messages?.map((m) => m.role).sort()).toEqual(['assistant', 'assistant', 'user', 'user'])
    expect(await seriousViolations(owner)).toEqual([])
  })

  it('keeps an invitation and a rename made while the server is down, and makes them when back', async () => {
    const { data: doc, error } = await ownerDb
      .from('documents')
      .insert({
        workspace_id: workspaceId,
        title: 'Pond survey',
        file_name: 'pond.txt',
        status: 'ready',
        stage: 'ready',
      })
      .select('id')
      .single()
    if (error) throw error

    // An invitation: the dialog keeps what was typed and says why; sent again once back.
    await owner.goto(`${stack.url}/w/${workspaceId}/members`)
    await owner.getByRole('button', { name: 'Invite' }).click()
    const dialog = owner.getByRole('dialog')
    await dialog.getByLabel('Email').fill('wren@example.com')
    await stack.halt()
    await dialog.getByRole('button', { name: 'Create invitation' }).click()
    await dialog.getByText(/Lost the connection to the server/).waitFor()
    await banner(owner).waitFor()
    expect(await dialog.getByLabel('Email').inputValue()).toBe('wren@example.com')
    await screenshot(owner, 'invite-offline', { fullPage: false })
    await stack.restart()
    await banner(owner).waitFor({ state: 'detached', timeout: 30_000 })
    await dialog.getByRole('button', { name: 'Create invitation' }).click()
    await dialog.getByLabel('Invitation link').waitFor()
    await dialog.getByRole('button', { name: 'Done' }).click()
    await owner
      .getByRole('region', { name: 'Pending invitations' })
      .getByText('wren@example.com')
      .waitFor()

    // A rename: the toast says the connection was lost, and its Retry renames after all.
    await owner.goto(`${stack.url}/w/${workspaceId}/library`)
    await owner.getByRole('button', { name: 'Actions for Pond survey' }).click()
    await owner.getByRole('menuitem', { name: 'Rename' }).click()
    const rename = owner.getByRole('dialog', { name: 'Rename document' })
    await rename.getByLabel('Title').fill('Pond survey, spring')
    await stack.halt()
    await rename.getByRole('button', { name: 'Save' }).click()
    const toast = owner.getByRole('listitem').filter({
      hasText: 'Could not rename the document: Lost the connection to the server',
    })
    await toast.waitFor()
    expect(await rename.getByLabel('Title').inputValue()).toBe('Pond survey, spring')
    await owner.setViewportSize({ width: 390, height: 844 })
    await screenshot(owner, 'rename-offline-phone', { fullPage: false })
    await owner.setViewportSize({ width: 1280, height: 800 })
    await owner.keyboard.press('Escape')
    await stack.restart()
    await banner(owner).waitFor({ state: 'detached', timeout: 30_000 })
    await toast.getByRole('button', { name: 'Retry' }).click()
    await owner.getByText('Document renamed').waitFor()
    const { data: renamed } = await ownerDb
      .from('documents')
      .select('title')
      .eq('id', doc.id)
      .single()
    expect(renamed?.title).toBe('Pond survey, spring')
    const { data: invitations } = await ownerDb
      .from('workspace_invitations')
      .select('role')
      .eq('workspace_id', workspaceId)
      .eq('email', 'wren@example.com')
    // Made once: the failed attempt left nothing behind.
    expect(invitations).toEqual([{ role: 'viewer' }])
  })

  it('tells a teammate with the conversation open that it was deleted, and by whom', async () => {
    const { data: conversation, error } = await ownerDb
      .from('conversations')
      .insert({ workspace_id: workspaceId, title: 'Shared notes', visibility: 'shared' })
      .select('id')
      .single()
    if (error) throw error
    await viewer.goto(`${stack.url}/w/${workspaceId}/chat/${conversation.id}`)
    const composer = viewer.getByRole('textbox', { name: 'Ask a question' })
    await composer.fill('A question in the making')
    // Both see each other once the channels have joined; then the list's channel listens too.
    await owner.goto(`${stack.url}/w/${workspaceId}/chat/${conversation.id}`)
    await viewer
      .getByText(/Shared by/)
      .first()
      .waitFor()
    await viewer.waitForTimeout(1000)

    await ownerDb.from('conversations').delete().eq('id', conversation.id)
    const notice = viewer.getByRole('region', { name: 'Conversation deleted' })
    await notice.waitFor()
    expect(await notice.getByRole('alert').textContent()).toBe(
      'This conversation was deleted by Olivia Owner.',
    )
    expect(await composer.isDisabled()).toBe(true)
    expect(await composer.inputValue()).toBe('A question in the making')
    expect(await viewer.getByText('Conversation not found').count()).toBe(0)
    await screenshot(viewer, 'chat-deleted-light', { fullPage: false })
    await viewer.emulateMedia({ colorScheme: 'dark' })
    await viewer.setViewportSize({ width: 390, height: 844 })
    await screenshot(viewer, 'chat-deleted-dark-phone', { fullPage: false })
    expect(await seriousViolations(viewer)).toEqual([])
    await notice.getByRole('link', { name: 'Back to conversations' }).click()
    await viewer.waitForURL(`${stack.url}/w/${workspaceId}/chat`)
  })
})
