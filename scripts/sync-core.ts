// Writes supabase/functions/_shared/core from packages/core/src (see sync-core/copy.ts), so
// the Edge Functions deploy from `supabase/` alone. Run it after changing packages/core;
// a test fails while the copy is stale.
// Usage: node scripts/sync-core.ts [--check]
import { mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { copyDir, readCopy, renderCopy } from './sync-core/copy.ts'

const root = new URL('..', import.meta.url).pathname
const wanted = renderCopy(root)
const current = readCopy(root)
const stale = [...new Set([...wanted.keys(), ...current.keys()])].filter(
  (path) => wanted.get(path) !== current.get(path),
)

if (process.argv.includes('--check')) {
  if (stale.length > 0) {
    console.error(`${copyDir} is stale (${stale.join(', ')}): run npm run sync:core`)
    process.exitCode = 1
  }
} else {
  rmSync(join(root, copyDir), { recursive: true, force: true })
  for (const [path, text] of wanted) {
    mkdirSync(dirname(join(root, copyDir, path)), { recursive: true })
    writeFileSync(join(root, copyDir, path), text)
  }
  console.log(`wrote ${wanted.size} files to ${copyDir} (${stale.length} changed)`)
}
