import { spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createClient } from '@supabase/supabase-js'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DEFAULT_SERVICE_ROLE_KEY, startLocalbase } from '../../packages/localbase/src/index.ts'
import { PASSWORD, signIn } from './support/app.ts'
import { launchBrowser, newPage } from './support/browser.ts'
import { expectViolations } from './support/csp.ts'
import { distDir, repoRoot, webDir } from './support/paths.ts'
import { startStack } from './support/stack.ts'

/** The directives of a Content-Security-Policy header, by name. */
function directives(policy: string | null): Map<string, string[]> {
  expect(policy).toBeTruthy()
  return new Map(
    policy!.split(';').map((part) => {
      const [name, ...sources] = part.trim().split(/\s+/)
      return [name!, sources] as const
    }),
  )
}

/** What the policy of any build must hold, wherever its API is. */
function expectTightPolicy(policy: Map<string, string[]>, html: string) {
  expect(policy.get('default-src')).toEqual([`'none'`])
  expect(policy.get('frame-ancestors')).toEqual([`'none'`])
  expect(policy.get('style-src-attr')).toEqual([`'none'`])
  for (const [name, sources] of policy) {
    expect(sources, name).not.toContain(`'unsafe-eval'`)
    // WebAssembly for OCR (tesseract.js) is the one thing compiled at run time.
    if (name !== 'script-src') expect(sources, name).not.toContain(`'wasm-unsafe-eval'`)
    expect(sources, name).not.toContain('*')
    if (!name.startsWith('style-src')) expect(sources, name).not.toContain(`'unsafe-inline'`)
  }
  // The theme script that runs before first paint is allowed by its hash, and only it.
  const inline = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map(([, body]) => body!)
  expect(inline).toHaveLength(1)
  const hash = createHash('sha256').update(inline[0]!).digest('base64')
  expect(policy.get('script-src')).toEqual([
    `'self'`,
    `'sha256-${hash}'`,
    `'wasm-unsafe-eval'`,
    `'report-sample'`,
  ])
}

describe('the served app', () => {
  let stack: Awaited<ReturnType<typeof startStack>>
  let browser: Browser
  let page: Page

  beforeAll(async () => {
    stack = await startStack()
    browser = await launchBrowser()
    page = await newPage(browser)
  })

  afterAll(async () => {
    await browser?.close()
    await stack?.stop()
  })

  it('sends the security headers with every page and file of the app', async () => {
    const html = readFileSync(join(distDir, 'index.html'), 'utf8')
    const worker = /ingest\.worker-[\w-]+\.js/.exec(
      readFileSync(join(distDir, 'assets', /index-[\w-]+\.js/.exec(html)![0]), 'utf8'),
    )
    const paths = ['/', '/sign-in', '/w/0e0e/library', '/favicon.svg']
    if (worker) paths.push(`/assets/${worker[0]}`)
    for (const path of paths) {
      const res = await fetch(`${stack.url}${path}`)
      expect(res.status, path).toBe(200)
      expect(res.headers.get('x-content-type-options'), path).toBe('nosniff')
      expect(res.headers.get('referrer-policy'), path).toBe('no-referrer')
      expect(res.headers.get('x-frame-options'), path).toBe('DENY')
      const policy = directives(res.headers.get('content-security-policy'))
      expectTightPolicy(policy, html)
      // Built without VITE_SUPABASE_URL, the app talks to the origin serving it.
      expect(policy.get('connect-src'), path).toEqual([`'self'`])
    }
  })

  it('runs its inline theme script: a saved dark theme applies before the app loads', async () => {
    await page.goto(`${stack.url}/sign-in`)
    await page.evaluate(() => localStorage.setItem('sourcebook:theme', 'dark'))
    await page.reload({ waitUntil: 'commit' })
    await page.waitForFunction(() => document.documentElement.classList.contains('dark'))
    await page.getByRole('heading', { name: 'Sign in to Sourcebook' }).waitFor()
    await page.evaluate(() => localStorage.removeItem('sourcebook:theme'))
  })

  it('reports what the policy refuses, so the suite would see any violation', async () => {
    await page.goto(`${stack.url}/sign-in`)
    await page.getByRole('heading', { name: 'Sign in to Sourcebook' }).waitFor()
    const ran = await page.evaluate(async () => {
      const state = window as unknown as { script?: boolean; handler?: boolean }
      const script = document.createElement('script')
      script.textContent = 'window.script = true'
      document.head.append(script)
      const button = document.createElement('button')
      button.setAttribute('onclick', 'window.handler = true')
      document.body.append(button)
      button.click()
      button.remove()
      const fetched = await fetch('http://elsewhere.invalid/steal').then(
        () => true,
        () => false,
      )
      return { script: !!state.script, handler: !!state.handler, fetched }
    })
    expect(ran).toEqual({ script: false, handler: false, fetched: false })
    await expectViolations(
      /script-src-elem refused inline \("window.script = true"\)/,
      /script-src-attr refused inline/,
      /connect-src refused http:\/\/elsewhere.invalid/,
    )
  })

  it('cannot be framed by another site', async () => {
    // Another origin's page framing what it is asked to; the health check has no headers
    // against framing, so it shows the frame works at all.
    const framer = createServer((req, res) => {
      const path = new URL(req.url ?? '/', 'http://framer').searchParams.get('path')
      res.setHeader('content-type', 'text/html')
      res.end(`<!doctype html><iframe src="${stack.url}${path}"></iframe>`)
    })
    await new Promise<void>((resolve) => framer.listen(0, '127.0.0.1', resolve))
    const { port } = framer.address() as AddressInfo
    const page = await newPage(browser)
    const frameUrl = async (path: string) => {
      await page.goto(`http://127.0.0.1:${port}/?path=${encodeURIComponent(path)}`)
      return page.frames()[1]?.url()
    }
    try {
      expect(await frameUrl('/health')).toBe(`${stack.url}/health`)
      expect(await frameUrl('/sign-in')).toBe('chrome-error://chromewebdata/')
      await expectViolations(/Framing '[^']+' violates .*frame-ancestors 'none'/)
    } finally {
      await page.context().close()
      await new Promise((resolve) => framer.close(resolve))
    }
  })
})

describe('an app built for an API on another origin', () => {
  let api: Awaited<ReturnType<typeof startStack>>
  let site: Awaited<ReturnType<typeof startLocalbase>>
  let browser: Browser
  const outDir = mkdtempSync(join(tmpdir(), 'sourcebook-dist-'))
  const dataDir = mkdtempSync(join(tmpdir(), 'sourcebook-site-'))

  beforeAll(async () => {
    api = await startStack()
    const vite = join(webDir, '../../node_modules/vite/bin/vite.js')
    const build = spawnSync(
      process.execPath,
      [vite, 'build', '--logLevel', 'error', '--outDir', outDir, '--emptyOutDir'],
      {
        cwd: webDir,
        stdio: 'inherit',
        env: { ...process.env, NODE_ENV: 'production', VITE_SUPABASE_URL: api.url },
      },
    )
    if (build.status !== 0) throw new Error(`vite build failed (${build.status})`)
    // Another localbase serves that build: the page's origin is not the API's.
    site = await startLocalbase({
      workdir: repoRoot,
      serveDir: outDir,
      port: 0,
      dataDir,
      env: { ...process.env, PORT: '', HOST: '', DATA_DIR: '' },
    })
    browser = await launchBrowser()
  })

  afterAll(async () => {
    await browser?.close()
    await site?.stop()
    await api?.stop()
    rmSync(outDir, { recursive: true, force: true })
    rmSync(dataDir, { recursive: true, force: true })
  })

  it("allows connections to that API's HTTP and WebSocket origins, and works under it", async () => {
    const res = await fetch(`${site.url}/`)
    const policy = directives(res.headers.get('content-security-policy'))
    expectTightPolicy(policy, readFileSync(join(outDir, 'index.html'), 'utf8'))
    const origin = new URL(api.url).origin
    expect(policy.get('connect-src')).toEqual([`'self'`, origin, origin.replace(/^http:/, 'ws:')])

    // Signing in, creating a workspace and watching its library (Realtime) all go to the API.
    const email = 'cora@example.com'
    const created = await createClient(api.url, DEFAULT_SERVICE_ROLE_KEY).auth.admin.createUser({
      email,
      password: PASSWORD,
      email_confirm: true,
    })
    expect(created.error).toBeNull()
    const page = await newPage(browser)
    const realtime = page.waitForEvent('websocket', (ws) =>
      ws.url().startsWith(`${origin.replace(/^http:/, 'ws:')}/realtime/`),
    )
    await page.goto(`${site.url}/sign-in`)
    await signIn(page, email)
    await page.getByRole('heading', { name: 'Workspaces', exact: true }).waitFor()
    await page.getByRole('button', { name: 'New workspace' }).first().click()
    await page.getByLabel('Workspace name').fill('Elsewhere')
    await page.getByRole('button', { name: 'Create workspace' }).click()
    await page.getByText('No documents yet').waitFor()
    await realtime
    expect(new URL(page.url()).origin).toBe(new URL(site.url).origin)
  })
})
