import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { type Browser, type BrowserContextOptions, chromium, type Page } from 'playwright-core'
import { watchViolations } from './csp.ts'
import { screenshotDir } from './paths.ts'

/**
 * Debian's Chromium, headless and quiet. playwright-core gives every launch a fresh
 * temporary profile (its own --user-data-dir), removed on close. Its pages' CSP violations
 * fail the test (csp-guard.ts).
 */
export async function launchBrowser(): Promise<Browser> {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-quic',
    ],
  })
  watchViolations(browser)
  return browser
}

/**
 * Waits for running CSS transitions: a theme switch fades colours for a moment, and a
 * screenshot or a contrast check must see the settled page, not the fade (transitions only:
 * a spinner's animation never finishes).
 */
export async function settled(page: Page): Promise<void> {
  // Two frames first: a switch made just now has then started its transitions.
  await page.evaluate(
    () => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))),
  )
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((animation) => animation instanceof CSSTransition)
        .map((animation) => animation.finished.catch(() => {})),
    ),
  )
}

/** The whole page by default; `fullPage: false` keeps the viewport (long documents). */
export async function screenshot(page: Page, name: string, { fullPage = true } = {}) {
  mkdirSync(screenshotDir, { recursive: true })
  await settled(page)
  await page.screenshot({ path: join(screenshotDir, `${name}.png`), fullPage })
}

/** A page in its own context (its own cookies and storage: another person). */
export async function newPage(browser: Browser, options: BrowserContextOptions = {}) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, ...options })
  context.setDefaultTimeout(15_000)
  return context.newPage()
}
