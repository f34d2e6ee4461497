import type { Page } from 'playwright-core'

export const PASSWORD = 'correct horse battery staple'

export async function signUp(page: Page, url: string, name: string, email: string) {
  await page.goto(`${url}/sign-up`)
  await page.getByLabel('Name').fill(name)
  await page.getByLabel('Email').fill(email)
  await page.getByLabel('Password').fill(PASSWORD)
  await page.getByRole('button', { name: 'Create account' }).click()
  await page.getByRole('heading', { name: 'Workspaces', exact: true }).waitFor()
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
