import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DEFAULT_PUBLISHABLE_KEY } from '../../packages/localbase/src/config/keys.ts'
import { PASSWORD, signUp } from './support/app.ts'
import { seriousViolations } from './support/axe.ts'
import { launchBrowser, newPage, screenshot } from './support/browser.ts'
import { startStack } from './support/stack.ts'

// The account page: a person renames themselves, which their teammates see, and signs out
// of every device at once.
describe('account page', () => {
  let stack: Awaited<ReturnType<typeof startStack>>
  let browser: Browser
  let laptop: Page
  let phone: Page
  const email = 'eddie@example.com'

  beforeAll(async () => {
    stack = await startStack()
    browser = await launchBrowser()
    laptop = await newPage(browser)
  })

  afterAll(async () => {
    await browser?.close()
    await stack?.stop()
  })

  it('is reached from the account menu, and passes axe', async () => {
    await signUp(laptop, stack.url, 'eddie', email)
    await laptop
      .getByRole('button', { name: /^Account menu/ })
      .first()
      .click()
    await laptop.getByRole('menuitem', { name: 'Account' }).click()
    await laptop.getByRole('heading', { name: 'Account', exact: true }).waitFor()
    expect(new URL(laptop.url()).pathname).toBe('/account')
    expect(await laptop.getByLabel('Name').inputValue()).toBe('eddie')
    await laptop.getByText(`You sign in as ${email}.`).waitFor()
    await screenshot(laptop, 'account')
    expect(await seriousViolations(laptop)).toEqual([])
  })

  it('renames the person, and the new name is what the app shows', async () => {
    await laptop.getByLabel('Name').fill('Eddie Example')
    await laptop.getByLabel('Name').press('Enter')
    await laptop.getByText('Name saved').waitFor()
    await laptop
      .getByRole('button', { name: /^Account menu/ })
      .first()
      .getByText('Eddie Example')
      .waitFor()
    await laptop.reload()
    expect(await laptop.getByLabel('Name').inputValue()).toBe('Eddie Example')
  })

  it('shows an email change waiting for its links', async () => {
    await laptop.getByLabel('New email').fill('eddie.new@example.com')
    await laptop.getByRole('button', { name: 'Send confirmation links' }).click()
    await laptop.getByRole('status').getByText('Waiting to confirm eddie.new@example.com').waitFor()
    await laptop.emulateMedia({ colorScheme: 'dark' })
    await screenshot(laptop, 'account-dark')
    expect(await seriousViolations(laptop)).toEqual([])
  })

  it('fits a phone', async () => {
    phone = await newPage(browser, {
      viewport: { width: 390, height: 844 },
      storageState: await laptop.context().storageState(),
    })
    await phone.goto(`${stack.url}/account`)
    await phone.getByRole('heading', { name: 'Account', exact: true }).waitFor()
    await screenshot(phone, 'phone-account')
    await phone.emulateMedia({ colorScheme: 'dark' })
    await screenshot(phone, 'phone-account-dark')
    expect(await seriousViolations(phone)).toEqual([])
  })

  it('signs out of all devices: the phone is signed out too', async () => {
    await laptop.emulateMedia({ colorScheme: 'light' })
    await laptop.getByRole('button', { name: 'Sign out of all devices…' }).click()
    const dialog = laptop.getByRole('alertdialog')
    await screenshot(laptop, 'account-sign-out-everywhere', { fullPage: false })
    await dialog.getByRole('button', { name: 'Sign out everywhere' }).click()
    await laptop.getByRole('heading', { name: 'Sign in to Sourcebook' }).waitFor()

    // The phone's session is over: its next request for a fresh token is refused.
    const tokens = await phone.evaluate(() => {
      const key = Object.keys(localStorage).find((k) => k.endsWith('-auth-token'))
      return JSON.parse(localStorage.getItem(key!) ?? '{}') as { refresh_token?: string }
    })
    const refreshed = await fetch(`${stack.url}/auth/v1/token?grant_type=refresh_token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', apikey: DEFAULT_PUBLISHABLE_KEY },
      body: JSON.stringify({ refresh_token: tokens.refresh_token }),
    })
    expect(refreshed.status).toBe(400)

    // The password still signs in.
    await laptop.getByLabel('Email').fill(email)
    await laptop.getByLabel('Password').fill(PASSWORD)
    await laptop.getByRole('button', { name: 'Sign in' }).click()
    await laptop.getByRole('heading', { name: 'Workspaces', exact: true }).waitFor()
  })
})
