import { existsSync, mkdirSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { importMapFor } from './import-map.ts'

export type DenoCommand = { file: string; args: string[] }

const require = createRequire(import.meta.url)

/**
 * The Deno binary from the `deno` npm package, found through Node's resolution rather than
 * PATH. The package's postinstall puts the binary beside package.json; when it did not run,
 * its `bin.cjs` launcher finds the platform package itself.
 */
export function denoCommand(): DenoCommand {
  const packageDir = dirname(require.resolve('deno/package.json'))
  const binary = join(packageDir, process.platform === 'win32' ? 'deno.exe' : 'deno')
  if (existsSync(binary)) return { file: binary, args: [] }
  return { file: process.execPath, args: [join(packageDir, 'bin.cjs')] }
}

/** Deno's download cache: one stable folder beside node_modules, so warm starts skip the network. */
export function defaultDenoDir(): string {
  const nodeModules = dirname(dirname(require.resolve('deno/package.json')))
  return join(nodeModules, '.cache', 'localbase-deno')
}

/** Writes the merged import map for one function into `dir` and returns its path. */
export function writeImportMap(dir: string, functionsDir: string, name: string): string {
  mkdirSync(dir, { recursive: true })
  const path = join(dir, `${name}.import_map.json`)
  writeFileSync(path, JSON.stringify(importMapFor(functionsDir, name), null, 2))
  return path
}

/**
 * Flags shared by `run` and `check`: --no-config so Deno neither discovers the repository's
 * package.json (which would switch npm: specifiers to a node_modules folder) nor a deno.json
 * we have already merged into the import map; --no-lock so nothing is written beside the code.
 */
export const denoFlags = (importMap: string) => [
  '--no-config',
  '--no-lock',
  '--import-map',
  importMap,
]

/** The entry module of a function folder, as the Supabase CLI looks for it. */
export function entryOf(functionDir: string): string | null {
  for (const file of ['index.ts', 'index.tsx', 'index.js', 'index.jsx', 'index.mjs']) {
    if (existsSync(join(functionDir, file))) return join(functionDir, file)
  }
  return null
}
