import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { distDir } from './support/paths.ts'

/** The JavaScript a first visit downloads: the entry and what Vite preloads with it. */
function initialScripts(): string[] {
  const html = readFileSync(join(distDir, 'index.html'), 'utf8')
  const entry = [...html.matchAll(/<script type="module"[^>]*src="\/([^"]+)"/g)].map((m) => m[1]!)
  const preloads = [...html.matchAll(/<link rel="modulepreload"[^>]*href="\/([^"]+)"/g)].map(
    (m) => m[1]!,
  )
  return [...entry, ...preloads]
}

describe('web app bundle', () => {
  it('keeps the initial JavaScript under 250 KB gzipped', () => {
    const files = initialScripts()
    expect(files.length).toBeGreaterThan(0)
    const gzipped = files.reduce(
      (total, file) => total + gzipSync(readFileSync(join(distDir, file))).length,
      0,
    )
    console.log(`initial JS: ${files.length} files, ${(gzipped / 1024).toFixed(1)} KB gzipped`)
    expect(gzipped).toBeLessThanOrEqual(250 * 1024)
  })
})
