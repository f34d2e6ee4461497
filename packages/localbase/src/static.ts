import { existsSync, readFileSync, statSync } from 'node:fs'
import { extname, join, normalize, sep } from 'node:path'
import type { Hono } from 'hono'
import { HEADERS_FILE, headersFor, siteHeaderRules } from './static-headers.ts'

const types: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.webp': 'image/webp',
  '.woff2': 'font/woff2',
  '.wasm': 'application/wasm',
  '.map': 'application/json',
  '.txt': 'text/plain; charset=utf-8',
}

/**
 * Serves a built single-page app: files as they are, every other GET gets index.html, each
 * with the headers the site's `_headers` file gives its path (which is not served itself).
 */
export function serveStatic(app: Hono, root: string): void {
  app.get('*', (c) => {
    const relative = normalize(decodeURIComponent(c.req.path)).replace(/^([/\\])+/, '')
    let file = join(root, relative)
    if (!file.startsWith(root + sep) && file !== root) return c.notFound()
    if (!existsSync(file) || statSync(file).isDirectory() || relative === HEADERS_FILE) {
      file = join(root, 'index.html')
    }
    if (!existsSync(file)) return c.notFound()
    const immutable = relative.startsWith('assets/')
    // As on Netlify and Cloudflare Pages, the site's own headers override the defaults.
    const headers = headersFor(siteHeaderRules(root), c.req.path)
    const defaults = {
      'content-type': types[extname(file)] ?? 'application/octet-stream',
      'cache-control': immutable ? 'public, max-age=31536000, immutable' : 'no-cache',
    }
    for (const [name, value] of Object.entries(defaults)) {
      if (!headers.has(name)) headers.set(name, value)
    }
    return new Response(readFileSync(file), { headers })
  })
}
