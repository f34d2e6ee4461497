import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Localbase, startLocalbase } from '../src/index.ts'
import { fixtures } from './helpers.ts'

/** A built site in a temporary folder: index.html, one asset, and `_headers` when given. */
function site(headersFile?: string): string {
  const root = mkdtempSync(join(tmpdir(), 'localbase-site-'))
  writeFileSync(join(root, 'index.html'), '<!doctype html><title>app</title>')
  mkdirSync(join(root, 'assets'))
  writeFileSync(join(root, 'assets/app-1234.js'), 'export {}')
  if (headersFile !== undefined) writeFileSync(join(root, '_headers'), headersFile)
  return root
}

async function serve(root: string): Promise<Localbase> {
  const dataDir = mkdtempSync(join(tmpdir(), 'localbase-test-'))
  const lb = await startLocalbase({
    workdir: join(fixtures, 'basic'),
    serveDir: root,
    port: 0,
    dataDir,
    env: { ...process.env, PORT: '', HOST: '', DATA_DIR: '' },
  })
  return {
    ...lb,
    stop: async () => {
      await lb.stop()
      rmSync(dataDir, { recursive: true, force: true })
      rmSync(root, { recursive: true, force: true })
    },
  }
}

const headersFile = `# Everything
/*
  Content-Security-Policy: default-src 'none'; script-src 'self'
  X-Content-Type-Options: nosniff

/assets/*
  Cache-Control: public, max-age=60
  X-Robots-Tag: noindex

/w/:workspace/settings
  X-Frame-Options: DENY

https://elsewhere.example/*
  X-Other-Host: yes
`

describe("a site's _headers", () => {
  let lb: Localbase
  beforeAll(async () => {
    lb = await serve(site(headersFile))
  })
  afterAll(() => lb?.stop())

  it('gives each path the headers of every rule it matches', async () => {
    const page = await fetch(`${lb.url}/`)
    expect(page.status).toBe(200)
    expect(page.headers.get('content-security-policy')).toBe(
      "default-src 'none'; script-src 'self'",
    )
    expect(page.headers.get('x-content-type-options')).toBe('nosniff')
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8')
    expect(page.headers.get('x-robots-tag')).toBeNull()
    expect(page.headers.get('x-other-host')).toBeNull()

    const asset = await fetch(`${lb.url}/assets/app-1234.js`)
    expect(asset.headers.get('content-type')).toBe('text/javascript; charset=utf-8')
    expect(asset.headers.get('x-content-type-options')).toBe('nosniff')
    expect(asset.headers.get('x-robots-tag')).toBe('noindex')
    // The site's own headers win over localbase's defaults.
    expect(asset.headers.get('cache-control')).toBe('public, max-age=60')
  })

  it("gives the app's routes (index.html) their own path's headers", async () => {
    const route = await fetch(`${lb.url}/w/8c0c7a6e/settings`)
    expect(await route.text()).toContain('<title>app</title>')
    expect(route.headers.get('x-frame-options')).toBe('DENY')
    expect(route.headers.get('content-security-policy')).toContain("default-src 'none'")
    const deeper = await fetch(`${lb.url}/w/8c0c7a6e/settings/more`)
    expect(deeper.headers.get('x-frame-options')).toBeNull()
  })

  it('does not serve _headers itself', async () => {
    const res = await fetch(`${lb.url}/_headers`)
    const body = await res.text()
    expect(body).toContain('<title>app</title>')
    expect(body).not.toContain('Content-Security-Policy')
  })

  it('leaves the API alone', async () => {
    const res = await fetch(`${lb.url}/health`)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-security-policy')).toBeNull()
  })
})

describe('a site without _headers', () => {
  let lb: Localbase
  beforeAll(async () => {
    lb = await serve(site())
  })
  afterAll(() => lb?.stop())

  it('is served with the defaults only', async () => {
    const page = await fetch(`${lb.url}/`)
    expect(page.status).toBe(200)
    expect(page.headers.get('content-security-policy')).toBeNull()
    expect(page.headers.get('cache-control')).toBe('no-cache')
  })
})
