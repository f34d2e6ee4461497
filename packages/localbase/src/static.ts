import { existsSync, readFileSync, statSync } from 'node:fs'
import { extname, join, normalize, sep } from 'node:path'
import type { Hono } from 'hono'

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

/** Serves a built single-page app: files as they are, every other GET gets index.html. */
export function serveStatic(app: Hono, root: string): void {
  app.get('*', (c) => {
    const relative = normalize(decodeURIComponent(c.req.path)).replace(/^([/\\])+/, '')
    let file = join(root, relative)
    if (!file.startsWith(root + sep) && file !== root) return c.notFound()
    if (!existsSync(file) || statSync(file).isDirectory()) file = join(root, 'index.html')
    if (!existsSync(file)) return c.notFound()
    const immutable = relative.startsWith('assets/')
    return new Response(readFileSync(file), {
      headers: {
        'content-type': types[extname(file)] ?? 'application/octet-stream',
        'cache-control': immutable ? 'public, max-age=31536000, immutable' : 'no-cache',
      },
    })
  })
}
