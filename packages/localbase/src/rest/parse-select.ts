import { parseError } from './errors.ts'
import type { Cond, OrderTerm } from './parse-filter.ts'
import { type Field, parseField, splitTop, unquote } from './tokens.ts'

// The `select=` grammar (wire surface §2.3): columns, aliases, casts, JSON paths, embeds, spreads.

export type SelectItem =
  | { kind: 'star' }
  | { kind: 'column'; field: Field; alias: string | null; cast: string | null }
  | { kind: 'aggregate'; fn: string; field: Field | null; alias: string | null }
  | { kind: 'embed'; embed: Embed }

/** One level of the query: what to select and how to filter, order and page it. */
export type QueryNode = {
  select: SelectItem[]
  filters: Cond[]
  order: OrderTerm[]
  limit: number | null
  offset: number | null
}

export type Embed = {
  name: string
  alias: string | null
  hint: string | null
  inner: boolean
  spread: boolean
  node: QueryNode
}

export const emptyNode = (select: SelectItem[]): QueryNode => ({
  select,
  filters: [],
  order: [],
  limit: null,
  offset: null,
})

const castPattern = /^[a-z_][a-z0-9_ ]*(\[\])?$/i

export function parseSelect(raw: string): SelectItem[] {
  const text = raw.trim() === '' ? '*' : raw
  const fail = (detail: string) => parseError(`failed to parse select parameter (${raw})`, detail)
  return splitTop(text).map((part) => parseItem(part.trim(), fail))
}

function parseItem(text: string, fail: (d: string) => Error): SelectItem {
  if (text === '*') return { kind: 'star' }
  if (!text) throw fail('unexpected empty item in the select list')
  const spread = text.startsWith('...')
  const body = spread ? text.slice(3) : text
  const open = body.indexOf('(')
  if (open >= 0) {
    if (!body.endsWith(')')) throw fail(`unexpected "${body}" expecting ")"`)
    const { alias, rest: head } = splitAlias(body.slice(0, open))
    const inner = body.slice(open + 1, -1)
    const aggregate = /^(?:(.+)\.)?(count|sum|avg|min|max)$/.exec(head)
    if (aggregate && inner.trim() === '' && !spread) {
      const field = aggregate[1] ? parseField(aggregate[1]) : null
      if (aggregate[1] && !field) throw fail(`unexpected "${head}"`)
      if (!field && aggregate[2] !== 'count') throw fail(`${aggregate[2]}() needs a column`)
      return { kind: 'aggregate', fn: aggregate[2] ?? 'count', field, alias }
    }
    const [name, ...mods] = head.split('!').map((s) => s.trim())
    if (!name || /[^\w$ -]/.test(unquote(name))) throw fail(`unexpected "${head}" in embed name`)
    let hint: string | null = null
    let inner_ = false
    for (const mod of mods) {
      if (mod === 'inner') inner_ = true
      else if (mod === 'left') inner_ = false
      else if (mod && hint === null) hint = mod
      else throw fail(`unexpected "!${mod}"`)
    }
    return {
      kind: 'embed',
      embed: {
        name: unquote(name),
        alias,
        hint,
        inner: inner_,
        spread,
        node: emptyNode(inner.trim() === '' ? [] : parseSelect(inner)),
      },
    }
  }
  if (spread) throw fail('a spread needs an embedded resource: ...name(columns)')
  const { alias, rest } = splitAlias(body)
  const castAt = rest.lastIndexOf('::')
  const cast = castAt >= 0 ? rest.slice(castAt + 2).trim() : null
  if (cast !== null && !castPattern.test(cast)) throw fail(`unexpected cast "${cast}"`)
  const field = parseField(castAt >= 0 ? rest.slice(0, castAt) : rest)
  if (!field) throw fail(`unexpected "${text}"`)
  return { kind: 'column', field, alias, cast }
}

/** `alias:rest`, where the colon is not part of a `::` cast. */
function splitAlias(text: string): { alias: string | null; rest: string } {
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '"') {
      i = text.indexOf('"', i + 1)
      if (i < 0) break
    } else if (text[i] === ':') {
      if (text[i + 1] === ':') return { alias: null, rest: text }
      const alias = unquote(text.slice(0, i).trim())
      return { alias: alias || null, rest: text.slice(i + 1).trim() }
    }
  }
  return { alias: null, rest: text.trim() }
}
