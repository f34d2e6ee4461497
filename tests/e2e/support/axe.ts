import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import type { Page } from 'playwright-core'
import { settled } from './browser.ts'

const axeSource = readFileSync(
  createRequire(import.meta.url).resolve('axe-core/axe.min.js'),
  'utf8',
)

type Violation = { id: string; impact: string | null; help: string; nodes: { target: string[] }[] }

/** Serious and critical accessibility violations on the page as it is now, one line each. */
export async function seriousViolations(page: Page): Promise<string[]> {
  // Colour contrast read mid theme-switch compares one theme's text with the other's background.
  await settled(page)
  // Evaluated through DevTools rather than added as an inline <script>, which the app's
  // Content-Security-Policy refuses.
  await page.evaluate(axeSource)
  const violations = await page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: { run: (context: Document) => Promise<{ violations: Violation[] }> }
      }
    ).axe
    const result = await axe.run(document)
    return result.violations
  })
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) =>
        `${v.impact} ${v.id}: ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`,
    )
}
