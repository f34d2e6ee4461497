import { createHash } from 'node:crypto'
import type { Plugin } from 'vite'

/**
 * The Content-Security-Policy of the built app, allowing only what it loads:
 * - scripts: its own modules, and the inline theme script in index.html by its hash;
 * - workers: the ingest worker and pdf.js's worker, module scripts from its own origin;
 * - connections: the Supabase API (REST, Auth, Storage, TUS, Edge Functions) and its
 *   Realtime WebSocket; `'self'` covers both when the app talks to the origin serving it;
 * - styles: its own stylesheets, and `<style>` elements, which need `'unsafe-inline'`:
 *   Radix's scroll lock writes the scrollbar's measured width into one, so no hash or build
 *   step can know its text (sonner, Radix Select and the theme switch add constant ones).
 *   Style attributes get nothing: React, Radix and pdf.js set styles through the CSSOM,
 *   which CSP does not govern;
 * - images: the favicon. pdf.js draws pages on canvases and loads the PDF's fonts with the
 *   FontFace API from bytes, so neither needs a source; with no `wasmUrl`, `cMapUrl` or
 *   `standardFontDataUrl` given, it fetches nothing else.
 * No `'unsafe-eval'`. `'wasm-unsafe-eval'` (compiling WebAssembly, nothing else) only for OCR:
 * tesseract.js's core is WebAssembly, run in a worker from this origin (covered by
 * `worker-src 'self'`) that inherits this policy from its script's response. The viewer still
 * turns pdf.js's compilation of PDF functions to WebAssembly off.
 */
export function contentSecurityPolicy({
  apiUrl,
  scriptHashes,
}: {
  /** VITE_SUPABASE_URL, or nothing when the app talks to the origin that serves it. */
  apiUrl?: string
  /** `sha256-…` of each inline script. */
  scriptHashes: string[]
}): string {
  const api = apiUrl ? new URL(apiUrl).origin : null
  const connect = api ? [`'self'`, api, api.replace(/^http/, 'ws')] : [`'self'`]
  const directives: [string, ...string[]][] = [
    ['default-src', `'none'`],
    [
      'script-src',
      `'self'`,
      ...scriptHashes.map((hash) => `'${hash}'`),
      `'wasm-unsafe-eval'`,
      `'report-sample'`,
    ],
    ['style-src', `'self'`, `'unsafe-inline'`],
    ['style-src-elem', `'self'`, `'unsafe-inline'`],
    ['style-src-attr', `'none'`],
    ['img-src', `'self'`],
    ['connect-src', ...connect],
    ['worker-src', `'self'`],
    ['base-uri', `'none'`],
    ['form-action', `'none'`],
    ['frame-ancestors', `'none'`],
  ]
  return directives.map((directive) => directive.join(' ')).join('; ')
}

/** `sha256-…` of every inline `<script>` (one without `src`) in an HTML page. */
export function inlineScriptHashes(html: string): string[] {
  return [...html.matchAll(/<script\b(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/gi)].map(
    ([, body]) => `sha256-${createHash('sha256').update(body!).digest('base64')}`,
  )
}

/** The headers every response of the built app carries. */
export function securityHeaders(options: { apiUrl?: string; scriptHashes: string[] }) {
  return {
    'Content-Security-Policy': contentSecurityPolicy(options),
    'X-Content-Type-Options': 'nosniff',
    // Links out of the app (and requests to another API origin) say nothing of the page.
    'Referrer-Policy': 'no-referrer',
    // frame-ancestors for browsers that predate it.
    'X-Frame-Options': 'DENY',
  }
}

/**
 * Writes `_headers` beside the built app: the file Netlify and Cloudflare Pages read, and
 * localbase too. The policy comes from what this build contains: the hashes of index.html's
 * inline scripts and the API origin baked in from VITE_SUPABASE_URL.
 */
export function securityHeadersFile(): Plugin {
  let apiUrl: string | undefined
  return {
    name: 'sourcebook:security-headers',
    apply: 'build',
    enforce: 'post',
    configResolved(config) {
      apiUrl = (config.env.VITE_SUPABASE_URL as string | undefined) || undefined
    },
    generateBundle(_options, bundle) {
      const page = bundle['index.html']
      if (page?.type !== 'asset') this.error('security headers: no index.html in the build')
      const headers = securityHeaders({
        apiUrl,
        scriptHashes: inlineScriptHashes(
          typeof page.source === 'string' ? page.source : new TextDecoder().decode(page.source),
        ),
      })
      const lines = Object.entries(headers).map(([name, value]) => `  ${name}: ${value}`)
      this.emitFile({ type: 'asset', fileName: '_headers', source: `/*\n${lines.join('\n')}\n` })
    },
  }
}
