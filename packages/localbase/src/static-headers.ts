import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'

/** The file of response headers a built site carries, as Netlify and Cloudflare Pages read it. */
export const HEADERS_FILE = '_headers'

type Rule = { path: RegExp; headers: [string, string][] }

const escape = (text: string) => text.replace(/[.+?^${}()|[\]\\]/g, '\\$&')

/**
 * Parses a `_headers` file: a path pattern on its own line, then its headers indented as
 * `Name: value`; `#` starts a comment. In a pattern, `*` matches anything and `:name` one
 * path segment. Rules for absolute URLs (another host) never match here.
 */
export function parseHeaderRules(text: string): Rule[] {
  const rules: Rule[] = []
  let current: Rule | null = null
  for (const line of text.split(/\r?\n/)) {
    const content = line.trim()
    if (!content || content.startsWith('#')) continue
    if (!/^\s/.test(line)) {
      const pattern = content.startsWith('/')
        ? escape(content).replaceAll('*', '.*').replace(/:\w+/g, '[^/]+')
        : '(?!)'
      current = { path: new RegExp(`^${pattern}$`), headers: [] }
      rules.push(current)
      continue
    }
    const colon = content.indexOf(':')
    if (!current || colon < 1) throw new Error(`${HEADERS_FILE}: cannot read "${content}"`)
    current.headers.push([content.slice(0, colon).trim(), content.slice(colon + 1).trim()])
  }
  return rules
}

/** The headers of every rule matching `path`; a header set by several rules lists each value. */
export function headersFor(rules: Rule[], path: string): Headers {
  const headers = new Headers()
  for (const rule of rules) {
    if (!rule.path.test(path)) continue
    for (const [name, value] of rule.headers) headers.append(name, value)
  }
  return headers
}

/** The rules of the site in `root`, read afresh: a rebuild may change them while serving. */
export function siteHeaderRules(root: string): Rule[] {
  const file = join(root, HEADERS_FILE)
  return existsSync(file) ? parseHeaderRules(readFileSync(file, 'utf8')) : []
}
