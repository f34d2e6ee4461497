import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openConfirmation, signIn, signOut, submitSignUp } from './support/app.ts'
import { seriousViolations } from './support/axe.ts'
import { launchBrowser, newPage, screenshot } from './support/browser.ts'
import { latestMail, startStack } from './support/stack.ts'

// The mailed flows, end to end through the local dev mailbox.
describe('accounts by mail', () => {
  let stack: Awaited<ReturnType<typeof startStack>>
  let browser: Browser
  let page: Page
  const email = 'forgetful@example.com'

  beforeAll(async () => {
    stack = await startStack()
    browser = await launchBrowser()
    page = await newPage(browser)
  })

  afterAll(async () => {
    await browser?.close()
    await stack?.stop()
  })

  it('signs up, waits for the mailed link, and is signed in by it', async () => {
    await submitSignUp(page, stack.url, 'Forgetful Fred', email)
    await page.getByRole('status').getByText(email).waitFor()
    // On the local stack the screen points at the dev mailbox, with the address filled in.
    expect(await page.getByRole('link', { name: 'dev mailbox' }).getAttribute('href')).toBe(
      `${stack.url}/auth/v1/mailbox?email=${encodeURIComponent(email)}`,
    )
    await screenshot(page, 'sign-up-check-mail')
    expect(await seriousViolations(page)).toEqual([])

    // Signing in first is refused, with a way to get the link again.
    await page.goto(`${stack.url}/sign-in`)
    await signIn(page, email)
    await page.getByText('Confirm your email address first').waitFor()
    await page.getByRole('button', { name: 'Send the link again' }).click()
    await page.getByText('Sent again. Use the link in the newest mail.').waitFor()
    await screenshot(page, 'sign-in-unconfirmed')
    expect(await seriousViolations(page)).toEqual([])

    await openConfirmation(page, stack.url, email)
    await signOut(page)
  })

  it('resets a forgotten password from the mailed link', async () => {
    await page.getByRole('link', { name: 'Forgot password?' }).click()
    await page.getByLabel('Email').fill(email)
    await page.getByRole('button', { name: 'Send reset link' }).click()
    await page.getByRole('status').getByText(email).waitFor()
    // On the local stack the screen points at the dev mailbox.
    expect(await page.getByRole('link', { name: 'dev mailbox' }).getAttribute('href')).toBe(
      `${stack.url}/auth/v1/mailbox?email=${encodeURIComponent(email)}`,
    )
    expect(await seriousViolations(page)).toEqual([])

    const mail = await latestMail(stack.url, email, (link) => link.includes('type=recovery'))
    await page.goto(mail.link)
    await page.getByRole('heading', { name: 'Choose a new password' }).waitFor()
    await screenshot(page, 'reset-password')
    await page.getByLabel('New password').fill('a brand new passphrase')
    await page.getByLabel('Repeat it').fill('a brand new passphrase')
    await page.getByRole('button', { name: 'Set new password' }).click()
    await page.getByRole('heading', { name: 'Workspaces', exact: true }).waitFor()

    await signOut(page)
    await signIn(page, email)
    await page.getByText('That email and password don’t match').waitFor()
    await page.getByLabel('Password').fill('a brand new passphrase')
    await page.getByRole('button', { name: 'Sign in' }).click()
    await page.getByRole('heading', { name: 'Workspaces', exact: true }).waitFor()
    await signOut(page)
  })

  it('signs in with a magic link and returns to the page asked for', async () => {
    await page.goto(`${stack.url}/workspaces?new=1`)
    await page.getByRole('link', { name: 'Email me a sign-in link instead' }).click()
    await page.getByLabel('Email').fill(email)
    await page.getByRole('button', { name: 'Email me a link' }).click()
    await page.getByRole('status').getByText(email).waitFor()
    await screenshot(page, 'magic-link-sent')

    const mail = await latestMail(stack.url, email, (link) => link.includes('type=magiclink'))
    await page.goto(mail.link)
    await page.waitForURL(/\/workspaces\?new=1/)
    await page.getByRole('heading', { name: 'Workspaces', exact: true }).waitFor()
  })
})
