// The Edge Functions' copy of packages/core: its sources (tests and test helpers left out),
// byte for byte, each under a header naming its origin. The functions import this copy so
// that `supabase/` deploys on its own; packages/core stays the one place to edit.
import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'

export const coreDir = 'packages/core/src'
export const copyDir = 'supabase/functions/_shared/core'

const header = (path: string) =>
  `// Generated from ${coreDir}/${path} by \`npm run sync:core\`: edit that file, not this one.\n`

/** Core's source files (relative paths), as the functions may import them. */
function sources(root: string, dir = join(root, coreDir)): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return entry.name === 'testing' ? [] : sources(root, path)
    if (!entry.name.endsWith('.ts') || entry.name.endsWith('.test.ts')) return []
    return [relative(join(root, coreDir), path)]
  })
}

/** The copy's files, path (relative to the copy's folder) to text. */
export function renderCopy(root: string): Map<string, string> {
  return new Map(
    sources(root)
      .sort()
      .map((path) => [path, header(path) + readFileSync(join(root, coreDir, path), 'utf8')]),
  )
}

/** Files now in the copy's folder, path to text. */
export function readCopy(root: string, dir = join(root, copyDir)): Map<string, string> {
  const files = new Map<string, string>()
  const walk = (at: string) => {
    for (const entry of readdirSync(at, { withFileTypes: true })) {
      const path = join(at, entry.name)
      if (entry.isDirectory()) walk(path)
      else files.set(relative(dir, path), readFileSync(path, 'utf8'))
    }
  }
  try {
    walk(dir)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
  }
  return files
}
