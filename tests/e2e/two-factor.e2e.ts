import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { totpCode } from '../../packages/localbase/src/auth/totp.ts'
import { signIn, signOut } from './support/app.ts'
import { sharedWorkspace, signedUpClient } from './support/accounts.ts'
import { seriousViolations } from './support/axe.ts'
import { launchBrowser, newPage, screenshot } from './support/browser.ts'
import { startStack } from './support/stack.ts'

// Two-factor sign-in in Chromium: a member of a workspace that requires it meets the closed
// workspace, adds an authenticator app (codes computed here from the setup key the page
// shows), signs out, signs back in with a code and opens the workspace.
describe('two-factor sign-in', () => {
  let stack: Awaited<ReturnType<typeof startStack>>
  let browser: Browser
  let page: Page
  let secret = ''
  let ownerSecret = ''
  let workspaceId = ''
  const email = 'mia@example.com'

  /** Light and dark, on the laptop and on a phone with the same session. */
  async function shoot(name: string, path: string, ready: (p: Page) => Promise<unknown>) {
    await screenshot(page, name)
    await page.emulateMedia({ colorScheme: 'dark' })
    await screenshot(page, `${name}-dark`)
    expect(await seriousViolations(page)).toEqual([])
    await page.emulateMedia({ colorScheme: 'light' })
    const phone = await newPage(browser, {
      viewport: { width: 390, height: 844 },
      storageState: await page.context().storageState(),
    })
    await phone.goto(`${stack.url}${path}`)
    await ready(phone)
    await screenshot(phone, `phone-${name}`)
    await phone.emulateMedia({ colorScheme: 'dark' })
    await screenshot(phone, `phone-${name}-dark`)
    expect(await seriousViolations(phone)).toEqual([])
    await phone.context().close()
  }

  beforeAll(async () => {
    stack = await startStack()
    browser = await launchBrowser()
    page = await newPage(browser)
    const owner = await signedUpClient(stack.url, 'Olga', 'olga@example.com')
    const member = await signedUpClient(stack.url, 'Mia', email)
    workspaceId = await sharedWorkspace(owner, member, 'Vault', 'viewer')
    // The owner turns the requirement on from a session that gave a code.
    const { data: factor } = await owner.auth.mfa.enroll({ factorType: 'totp' })
    const verified = await owner.auth.mfa.challengeAndVerify({
      factorId: factor!.id,
      code: totpCode(factor!.totp.secret),
    })
    expect(verified.error).toBeNull()
    ownerSecret = factor!.totp.secret
    const required = await owner
      .from('workspaces')
      .update({ require_mfa: true })
      .eq('id', workspaceId)
    expect(required.error).toBeNull()
  })

  afterAll(async () => {
    await browser?.close()
    await stack?.stop()
  })

  it('shows a member without an app that the workspace is closed, and why', async () => {
    await page.goto(`${stack.url}/sign-in`)
    await signIn(page, email)
    const notice = page.getByRole('region', { name: 'A workspace requires two-factor sign-in' })
    await notice.waitFor()
    await notice.getByRole('link', { name: 'Open Vault' }).click()
    await page.getByRole('heading', { name: 'Vault requires two-factor sign-in' }).waitFor()
    await shoot('two-factor-required', `/w/${workspaceId}`, (p) =>
      p.getByRole('heading', { name: 'Vault requires two-factor sign-in' }).waitFor(),
    )
  })

  it('adds an authenticator app from the account page', async () => {
    await page.getByRole('link', { name: 'Set up two-factor sign-in' }).click()
    await page.getByRole('heading', { name: 'Two-factor sign-in' }).waitFor()
    await page.getByRole('button', { name: 'Add an authenticator app' }).click()
    await page.getByLabel('App name').fill('Phone')
    await page.getByRole('button', { name: 'Continue' }).click()
    const key = page.getByTestId('totp-secret')
    await key.waitFor()
    secret = (await key.textContent())!.replace(/\s/g, '')
    expect(secret).toMatch(/^[A-Z2-7]{32}$/)
    await page.getByRole('img', { name: /QR code/ }).waitFor()
    await screenshot(page, 'two-factor-enrol')
    await page.emulateMedia({ colorScheme: 'dark' })
    await screenshot(page, 'two-factor-enrol-dark')
    expect(await seriousViolations(page)).toEqual([])
    await page.emulateMedia({ colorScheme: 'light' })
    await page.setViewportSize({ width: 390, height: 844 })
    await screenshot(page, 'phone-two-factor-enrol')
    await page.setViewportSize({ width: 1280, height: 800 })

    await page.getByLabel('Code from your authenticator app').fill(totpCode(secret))
    await page.getByRole('button', { name: 'Turn on two-factor sign-in' }).click()
    await page.getByText('Two-factor sign-in is on').waitFor()
    await page.getByRole('list', { name: 'Authenticator apps' }).getByText('Phone').waitFor()
    await screenshot(page, 'two-factor-on')
  })

  it('asks for the code at the next sign-in, then opens the workspace', async () => {
    await signOut(page)
    // The enrolment's toast is gone by the time anyone signs in again.
    await page.locator('[data-sonner-toast]').first().waitFor({ state: 'detached' })
    await signIn(page, email)
    await page.getByRole('heading', { name: 'Two-factor sign-in' }).waitFor()
    expect(
      await page
        .getByLabel('Code from your authenticator app')
        .evaluate((el) => el === document.activeElement),
    ).toBe(true)
    await shoot('two-factor-sign-in', '/sign-in', (p) =>
      p.getByRole('heading', { name: 'Two-factor sign-in' }).waitFor(),
    )
    // This step's code went to turning the app on; the next one is accepted early.
    await page
      .getByLabel('Code from your authenticator app')
      .fill(totpCode(secret, Date.now() + 30_000))
    await page.getByRole('button', { name: 'Verify' }).click()
    // Home opens the workspace last visited: Vault, open this time.
    await page.waitForURL(`**/w/${workspaceId}/**`)
    await page.getByRole('heading', { name: 'Library' }).waitFor()
    await screenshot(page, 'two-factor-workspace-open')
    expect(await page.getByRole('heading', { name: /requires two-factor/ }).count()).toBe(0)
  })
  it('shows the owner the requirement in Settings', async () => {
    const owner = await newPage(browser)
    await owner.goto(`${stack.url}/w/${workspaceId}/settings`)
    await signIn(owner, 'olga@example.com')
    await owner
      .getByLabel('Code from your authenticator app')
      .fill(totpCode(ownerSecret, Date.now() + 30_000))
    await owner.getByRole('button', { name: 'Verify' }).click()
    await owner.getByRole('button', { name: 'Make it optional' }).waitFor()
    page = owner
    await shoot('two-factor-settings', `/w/${workspaceId}/settings`, (p) =>
      p.getByRole('button', { name: 'Make it optional' }).waitFor(),
    )
  })
})
