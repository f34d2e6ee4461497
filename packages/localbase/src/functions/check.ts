// Type-checks every Edge Function of a project with `deno check`, with the same shims and
// import maps localbase runs them with. Exits non-zero when any function fails.
//   node packages/localbase/src/functions/check.ts --workdir <project dir>
import { spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { defaultDenoDir, denoCommand, denoFlags, entryOf } from './deno.ts'
import { importMapFor } from './import-map.ts'

/** Entry files grouped by identical import map, so one `deno check` covers each group. */
function groups(functionsDir: string): Map<string, string[]> {
  const byMap = new Map<string, string[]>()
  for (const entry of readdirSync(functionsDir, { withFileTypes: true })) {
    if (!entry.isDirectory() || /^[._]/.test(entry.name)) continue
    const file = entryOf(join(functionsDir, entry.name))
    if (!file) continue
    const map = JSON.stringify(importMapFor(functionsDir, entry.name))
    byMap.set(map, [...(byMap.get(map) ?? []), file])
  }
  return byMap
}

/** Returns true when every function type-checks; Deno prints the errors. */
export function checkFunctions(workdir: string): boolean {
  const functionsDir = join(resolve(workdir), 'supabase', 'functions')
  if (!existsSync(functionsDir)) return true
  const scratch = mkdtempSync(join(tmpdir(), 'localbase-check-'))
  const deno = denoCommand()
  let ok = true
  try {
    for (const [map, files] of groups(functionsDir)) {
      const importMap = join(scratch, 'import_map.json')
      writeFileSync(importMap, map)
      const result = spawnSync(
        deno.file,
        [...deno.args, 'check', ...denoFlags(importMap), ...files],
        {
          stdio: 'inherit',
          env: {
            ...process.env,
            DENO_DIR: process.env.DENO_DIR || defaultDenoDir(),
            NO_COLOR: '1',
          },
        },
      )
      ok &&= result.status === 0
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true })
  }
  return ok
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({ options: { workdir: { type: 'string', default: '.' } } })
  process.exit(checkFunctions(values.workdir) ? 0 : 1)
}
