import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { pathToFileURL } from 'node:url'

export type ImportMap = {
  imports: Record<string, string>
  scopes: Record<string, Record<string, string>>
}

const shimDir = new URL('./deno/', import.meta.url)
const edgeRuntimeTypes = /jsr:@supabase\/functions-js(?:@[^/'"\s]+)?\/edge-runtime\.d\.ts/g
const stdServe = /https:\/\/deno\.land\/std(?:@[^/'"\s]+)?\/http\/server\.ts/g
// JSR is out of reach offline; Supabase publishes the same client packages to npm.
const jsrSupabase = /jsr:@supabase\/([a-z0-9-]+)(@[^/'"\s]+)?(\/[^'"\s]*)?/g
const sourceFile = /\.(?:[cm]?[jt]sx?)$/

/** Every source file under the functions folder, to find the specifiers that need a shim. */
function sources(dir: string): string[] {
  if (!existsSync(dir)) return []
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (entry.name.startsWith('.') || entry.name === 'node_modules') return []
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return sources(path)
    return sourceFile.test(entry.name) ? [path] : []
  })
}

/**
 * Deno 2 has no loader hooks, so shims go in through the import map: exact keys for each
 * spelling found in the sources (the std version is part of the URL, and import-map keys
 * only match by prefix when they end in `/`). The edge-runtime types come last, so they win
 * over the general jsr:@supabase → npm:@supabase mapping.
 */
function shimImports(functionsDir: string): Record<string, string> {
  const imports: Record<string, string> = {}
  for (const file of sources(functionsDir)) {
    const text = readFileSync(file, 'utf8')
    for (const [specifier, name, version = '', path = ''] of text.matchAll(jsrSupabase)) {
      imports[specifier] = `npm:@supabase/${name}${version}${path}`
    }
    for (const [specifier] of text.matchAll(edgeRuntimeTypes)) {
      imports[specifier] = new URL('edge-runtime.d.ts', shimDir).href
    }
    for (const [specifier] of text.matchAll(stdServe)) {
      imports[specifier] = new URL('std-http-server.js', shimDir).href
    }
  }
  return imports
}

/** Relative addresses and keys in a map are relative to the map file itself. */
function absolute(entries: Record<string, string>, base: URL): Record<string, string> {
  const relative = (value: string) => /^\.{0,2}\//.test(value)
  return Object.fromEntries(
    Object.entries(entries).map(([key, value]) => [
      relative(key) ? new URL(key, base).href : key,
      relative(value) ? new URL(value, base).href : value,
    ]),
  )
}

function readMap(path: string): ImportMap {
  const json = JSON.parse(readFileSync(path, 'utf8')) as Partial<ImportMap> & { importMap?: string }
  if (json.importMap && !json.imports) return readMap(join(dirname(path), json.importMap))
  const base = pathToFileURL(path)
  const scopes: ImportMap['scopes'] = {}
  for (const [scope, entries] of Object.entries(json.scopes ?? {})) {
    scopes[new URL(scope, base).href] = absolute(entries, base)
  }
  return { imports: absolute(json.imports ?? {}, base), scopes }
}

/** The function's own map, as the Supabase CLI finds it: deno.json, then import_map.json files. */
function ownMap(functionsDir: string, name: string): ImportMap {
  const candidates = [
    join(functionsDir, name, 'deno.json'),
    join(functionsDir, name, 'import_map.json'),
    join(functionsDir, 'import_map.json'),
  ]
  const found = candidates.find((path) => existsSync(path))
  return found ? readMap(found) : { imports: {}, scopes: {} }
}

/** The function's import map with localbase's shims laid over it. */
export function importMapFor(functionsDir: string, name: string): ImportMap {
  const own = ownMap(functionsDir, name)
  return { imports: { ...own.imports, ...shimImports(functionsDir) }, scopes: own.scopes }
}
