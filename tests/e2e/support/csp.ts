import type { Browser, BrowserContext } from 'playwright-core'

// Content-Security-Policy violations seen by any page of this test file, until taken.
const violations: string[] = []

/** Hands over (and forgets) the violations seen since the last call. */
export function takeViolations(): string[] {
  return violations.splice(0)
}

/**
 * Records every CSP violation in the contexts `browser` opens (and so in every page, since
 * `browser.newPage` goes through `newContext`): the `securitypolicyviolation` events of each
 * document, and the console's CSP messages, which also carry what workers were refused and
 * frames a page may not embed (events fire in the refusing document, not the embedding one).
 */
export function watchViolations(browser: Browser): void {
  const newContext = browser.newContext.bind(browser)
  browser.newContext = async (options) => {
    const context = await newContext(options)
    await recordViolations(context)
    return context
  }
}

async function recordViolations(context: BrowserContext) {
  await context.exposeBinding('__recordCspViolation', ({ page }, text: string) => {
    violations.push(`${page.url()}: ${text}`)
  })
  await context.addInitScript(() => {
    const record = (window as unknown as { __recordCspViolation(text: string): void })
      .__recordCspViolation
    addEventListener('securitypolicyviolation', (event) => {
      const where = event.sourceFile ? ` at ${event.sourceFile}:${event.lineNumber}` : ''
      const sample = event.sample ? ` ("${event.sample}")` : ''
      record(`${event.effectiveDirective} refused ${event.blockedURI || 'inline'}${where}${sample}`)
    })
  })
  context.on('console', (message) => {
    if (!/Content.Security.Policy/i.test(message.text())) return
    const from = message.worker()?.url() ?? message.page()?.url() ?? 'console'
    violations.push(`${from}: ${message.text()}`)
  })
}

/**
 * Waits (up to 5 s) until a violation matching each pattern has been seen, and takes them
 * all: for tests that provoke violations on purpose. Fails naming the ones not seen.
 */
export async function expectViolations(...patterns: RegExp[]): Promise<string[]> {
  const seen: string[] = []
  const missing = () => patterns.filter((pattern) => !seen.some((v) => pattern.test(v)))
  for (let i = 0; i < 100 && missing().length > 0; i++) {
    await new Promise((resolve) => setTimeout(resolve, 50))
    seen.push(...takeViolations())
  }
  if (missing().length > 0) {
    throw new Error(`no violation matched ${missing().join(', ')}; seen:\n${seen.join('\n')}`)
  }
  return seen
}
