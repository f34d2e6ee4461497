import type { Page } from 'playwright-core'
import { latestMail } from './stack.ts'

export const PASSWORD = 'correct horse battery staple'

/** Fills in and sends the sign-up form, up to the screen that asks for the mailed link. */
export async function submitSignUp(page: Page, url: string, name: string, email: string) {
  await page.goto(`${url}/sign-up`)
  await page.getByLabel('Name').fill(name)
  await page.getByLabel('Email').fill(email)
  await page.getByLabel('Password').fill(PASSWORD)
  await page.getByRole('button', { name: 'Create account' }).click()
  await page.getByText('Check your inbox').waitFor()
}

/** Opens the newest confirmation link mailed to `email`, which lands on the app signed in. */
export async function openConfirmation(page: Page, url: string, email: string) {
  const mail = await latestMail(url, email, (link) => link.includes('type=signup'))
  await page.goto(mail.link)
  await page.getByRole('heading', { name: 'Workspaces', exact: true }).waitFor()
}

/** Signs up through the form and confirms the address from the mail: signed in. */
export async function signUp(page: Page, url: string, name: string, email: string) {
  await submitSignUp(page, url, name, email)
  await openConfirmation(page, url, email)
}

export async function signIn(page: Page, email: string) {
  await page.getByLabel('Email').fill(email)
  await page.getByLabel('Password').fill(PASSWORD)
  await page.getByRole('button', { name: 'Sign in' }).click()
}

export async function signOut(page: Page) {
  await page
    .getByRole('button', { name: /^Account menu/ })
    .first()
    .click()
  await page.getByRole('menuitem', { name: 'Sign out' }).click()
  await page.getByRole('heading', { name: 'Sign in to Sourcebook' }).waitFor()
}
