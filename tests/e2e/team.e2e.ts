import { gzipSync } from 'node:zlib'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { PASSWORD, signIn, signOut, signUp } from './support/app.ts'
import { seriousViolations } from './support/axe.ts'
import { launchBrowser, newPage, screenshot } from './support/browser.ts'
import { latestMail, startStack } from './support/stack.ts'

// One team's first day: an owner signs up, creates a workspace, invites a colleague who
// joins from the mailed link and a newcomer who joins from the invitation mail, promotes
// the colleague, who signs out and back in.
describe('a team gets started', () => {
  let stack: Awaited<ReturnType<typeof startStack>>
  let browser: Browser
  let owner: Page
  let guest: Page
  const ownerEmail = 'owner@example.com'
  const guestEmail = 'guest@example.com'
  let workspaceUrl = ''

  async function expectAccessible(page: Page) {
    expect(await seriousViolations(page)).toEqual([])
  }

  beforeAll(async () => {
    stack = await startStack()
    browser = await launchBrowser()
    owner = await newPage(browser)
    guest = await newPage(browser)
  })

  afterAll(async () => {
    await browser?.close()
    await stack?.stop()
  })

  it('shows the sign-in page to a signed-out visitor', async () => {
    const scripts: Promise<number>[] = []
    owner.on('response', (response) => {
      if (response.url().endsWith('.js'))
        scripts.push(response.body().then((b) => gzipSync(b).length))
    })
    await owner.goto(`${stack.url}/workspaces`)
    await owner.getByRole('heading', { name: 'Sign in to Sourcebook' }).waitFor()
    owner.removeAllListeners('response')
    const total = (await Promise.all(scripts)).reduce((a, b) => a + b, 0)
    console.log(`JS for a first visit to sign-in: ${(total / 1024).toFixed(1)} KB gzipped`)
    expect(new URL(owner.url()).searchParams.get('next')).toBe('/workspaces')
    await screenshot(owner, 'sign-in')
    await expectAccessible(owner)
  })

  it('signs the owner up and creates a workspace', async () => {
    await signUp(owner, stack.url, 'Olivia Owner', ownerEmail)
    await owner.getByText('No workspaces yet').waitFor()
    await screenshot(owner, 'workspaces-empty')
    await expectAccessible(owner)

    await owner.getByRole('button', { name: 'New workspace' }).first().click()
    await owner.getByLabel('Workspace name').fill('Acme Research')
    await owner.getByRole('button', { name: 'Create workspace' }).click()
    await owner.getByRole('heading', { name: 'Library' }).waitFor()
    workspaceUrl = owner.url().replace(/\/library$/, '')
    await owner.getByText('No documents yet').waitFor()
    await screenshot(owner, 'library-empty')
    await expectAccessible(owner)

    await owner.goto(`${stack.url}/workspaces`)
    await owner.getByRole('link', { name: /Acme Research/ }).waitFor()
    await screenshot(owner, 'workspaces')
  })

  it('invites a colleague, who joins from the mailed link', async () => {
    await signUp(guest, stack.url, 'Gus Guest', guestEmail)

    await owner.goto(`${workspaceUrl}/members`)
    await owner.getByRole('button', { name: 'Invite' }).click()
    await owner.getByRole('dialog').getByLabel('Email').fill(guestEmail)
    await owner.getByRole('button', { name: 'Create invitation' }).click()
    const link = await owner.getByRole('dialog').getByLabel('Invitation link').inputValue()
    expect(link).toMatch(new RegExp(`^${stack.url}/invite/[0-9a-f]{64}$`))
    await owner.getByRole('button', { name: 'Done' }).click()
    await owner.getByRole('region', { name: 'Pending invitations' }).getByText(guestEmail).waitFor()
    await screenshot(owner, 'members-pending')
    await expectAccessible(owner)

    // The colleague sees the invitation waiting, but joins only through the mailed link.
    await guest.reload()
    const waiting = guest.getByRole('region', { name: 'Invitations for you' })
    await waiting.getByText('Acme Research').waitFor()
    expect(await waiting.textContent()).toContain('Olivia Owner invited you as a viewer.')
    await screenshot(guest, 'workspaces-invited')
    await expectAccessible(guest)

    const mail = await latestMail(stack.url, guestEmail, (l) =>
      l.includes(encodeURIComponent(link)),
    )
    await guest.goto(mail.link)
    await guest.getByRole('heading', { name: 'Join Acme Research' }).waitFor()
    await screenshot(guest, 'invite')
    await expectAccessible(guest)
    await guest.getByRole('button', { name: 'Join Acme Research' }).click()
    await guest.getByRole('heading', { name: 'Library' }).waitFor()
    await guest
      .getByRole('button', { name: /Workspace: Acme Research/ })
      .first()
      .waitFor()
    // A viewer may not upload.
    expect(await guest.getByRole('button', { name: 'Upload', exact: true }).count()).toBe(0)
  })

  it('mails a newcomer an invitation that says who and what, and joins them in one step', async () => {
    const newcomerEmail = 'newcomer@example.com'
    await owner.getByRole('button', { name: 'Invite' }).click()
    await owner.getByRole('dialog').getByLabel('Email').fill(newcomerEmail)
    await owner.getByRole('dialog').getByLabel('Role').click()
    await owner.getByRole('option', { name: /^Editor/ }).click()
    await owner.getByRole('button', { name: 'Create invitation' }).click()
    const link = await owner.getByRole('dialog').getByLabel('Invitation link').inputValue()
    await owner.getByRole('dialog').getByText(`We emailed ${newcomerEmail}`).waitFor()
    await owner.getByRole('button', { name: 'Done' }).click()

    // Sourcebook's invitation mail names the inviter, the workspace and the role; its link
    // lands on the invitation signed in to a new account.
    const mail = await latestMail(stack.url, newcomerEmail, (l) =>
      l.includes(encodeURIComponent(link)),
    )
    expect(mail.subject).toBe('Olivia Owner invited you to join Acme Research on Sourcebook')
    expect(mail.text).toContain(
      'Olivia Owner invited you to join Acme Research on Sourcebook as an editor.',
    )
    const newcomer = await newPage(browser)
    await newcomer.goto(`${stack.url}/auth/v1/mailbox?email=${encodeURIComponent(newcomerEmail)}`)
    await screenshot(newcomer, 'invitation-mail')
    await newcomer.goto(mail.link)
    await newcomer.getByText('Tell your teammates who you are').waitFor()
    await newcomer
      .getByText(/^Olivia Owner invited newcomer@example\.com to join as an editor\.$/)
      .waitFor()
    await screenshot(newcomer, 'invite-new-account')
    await expectAccessible(newcomer)
    await newcomer.emulateMedia({ colorScheme: 'dark' })
    await screenshot(newcomer, 'invite-new-account-dark')
    await newcomer.setViewportSize({ width: 390, height: 844 })
    await screenshot(newcomer, 'phone-invite-new-account-dark')
    await newcomer.emulateMedia({ colorScheme: 'light' })
    await screenshot(newcomer, 'phone-invite-new-account')
    await newcomer.setViewportSize({ width: 1280, height: 800 })

    // A name is required; then one click sets the account up and joins.
    await newcomer.getByLabel('Password', { exact: true }).fill(PASSWORD)
    await newcomer.getByLabel('Repeat the password').fill(PASSWORD)
    await newcomer.getByRole('button', { name: 'Join Acme Research' }).click()
    await newcomer.getByText('Enter your name').waitFor()
    await newcomer.getByLabel('Your name').fill('Nina Newcomer')
    await newcomer.getByRole('button', { name: 'Join Acme Research' }).click()
    await newcomer.getByRole('heading', { name: 'Library' }).waitFor()
    await newcomer
      .getByRole('button', { name: /^Account menu/ })
      .first()
      .getByText('Nina Newcomer')
      .waitFor()
    // An editor may upload.
    await newcomer.getByRole('button', { name: 'Upload', exact: true }).first().waitFor()

    // The owner sees them by the name they chose, not their address's first half.
    await owner.reload()
    await owner.getByText('3 members').waitFor()
    await owner.getByRole('combobox', { name: 'Role of Nina Newcomer' }).waitFor()
    expect(await owner.getByText('newcomer', { exact: true }).count()).toBe(0)

    // The password they chose signs them in next time.
    await signOut(newcomer)
    await signIn(newcomer, newcomerEmail)
    await newcomer.waitForURL(`${workspaceUrl}/library`)
    await newcomer.context().close()
  })

  it('lets the owner make the colleague an editor, which takes effect for them', async () => {
    await owner.reload()
    await owner.getByText('3 members').waitFor()
    await owner.getByRole('combobox', { name: 'Role of Gus Guest' }).click()
    await owner.getByRole('option', { name: /editor/i }).click()
    await owner.getByText('Role changed').waitFor()
    await screenshot(owner, 'members')

    // Live, through Realtime: no reload needed.
    await guest.getByRole('button', { name: 'Upload', exact: true }).waitFor()
    await guest.reload()
    await guest.getByRole('button', { name: 'Upload', exact: true }).waitFor()
  })

  it('signs the colleague out and back in, to the workspace they used last', async () => {
    await signOut(guest)
    await signIn(guest, guestEmail)
    await guest.waitForURL(`${workspaceUrl}/library`)
    await guest.getByRole('heading', { name: 'Library' }).waitFor()
  })

  it('keeps the session across a reload and in a new tab', async () => {
    const tab = await owner.context().newPage()
    await tab.goto(`${stack.url}/`)
    await tab.waitForURL(/\/w\/[0-9a-f-]{36}\/library$/)
    await tab.close()
  })

  it('has a dark theme', async () => {
    await owner.goto(`${workspaceUrl}/members`)
    await owner.getByText('3 members').waitFor()
    await owner
      .getByRole('button', { name: /^Theme:/ })
      .first()
      .click()
    await owner.getByRole('menuitemradio', { name: 'Dark' }).click()
    expect(await owner.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(
      true,
    )
    await owner.getByRole('menu').waitFor({ state: 'hidden' })
    await screenshot(owner, 'members-dark')
    await expectAccessible(owner)
    await owner.reload()
    expect(await owner.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(
      true,
    )
    await owner.goto(`${workspaceUrl}/library`)
    await owner.getByText('No documents yet').waitFor()
    await screenshot(owner, 'library-dark')
  })

  it('fits a phone, with the sidebar in a sheet', async () => {
    const phone = await browser.newContext({
      viewport: { width: 390, height: 844 },
      storageState: await owner.context().storageState(),
    })
    const page = await phone.newPage()
    await page.goto(`${workspaceUrl}/library`)
    await page.getByText('No documents yet').waitFor()
    await screenshot(page, 'phone-library')
    await expectAccessible(page)
    await page.getByRole('button', { name: 'Open menu' }).click()
    await page.getByRole('dialog').getByRole('link', { name: 'Members' }).click()
    await page.getByText('3 members').waitFor()
    // Navigating closes the sheet; it leaves the page once its closing animation ends.
    await page.getByRole('dialog').waitFor({ state: 'detached', timeout: 5_000 })
    await page.getByRole('button', { name: 'Open menu' }).click()
    await page.getByRole('dialog').getByRole('link', { name: 'Settings' }).waitFor()
    await screenshot(page, 'phone-menu')
    await phone.close()
  })
})
