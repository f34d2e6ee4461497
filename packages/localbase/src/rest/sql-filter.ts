import { ApiError } from './errors.ts'
import type { Cond, OpCond } from './parse-filter.ts'
import { type Params } from './sql.ts'
import { type Field, splitTop, unquote } from './tokens.ts'

// Filters → SQL conditions; values always travel as parameters.

/** How a condition sees its level of the query: column SQL, and embeds for `rel=is.null`. */
export type FilterScope = {
  column(field: Field): string
  /** SQL that is true when the named embed has a value, or null when it is not an embed. */
  embedPresent(name: string): string | null
}

const comparisons: Record<string, string> = {
  eq: '=',
  neq: '<>',
  gt: '>',
  gte: '>=',
  lt: '<',
  lte: '<=',
  like: 'like',
  ilike: 'ilike',
  match: '~',
  imatch: '~*',
  cs: '@>',
  cd: '<@',
  ov: '&&',
  sl: '<<',
  sr: '>>',
  nxr: '&<',
  nxl: '&>',
  adj: '-|-',
}
const tsFunctions: Record<string, string> = {
  fts: 'to_tsquery',
  plfts: 'plainto_tsquery',
  phfts: 'phraseto_tsquery',
  wfts: 'websearch_to_tsquery',
}

export function compileCond(cond: Cond, scope: FilterScope, params: Params): string {
  if (cond.kind === 'logic') {
    const joined = cond.items.map((c) => compileCond(c, scope, params)).join(` ${cond.op} `)
    return cond.negate ? `not (${joined})` : `(${joined})`
  }
  const sql = compileOp(cond, scope, params)
  return cond.negate ? `not (${sql})` : sql
}

function compileOp(cond: OpCond, scope: FilterScope, params: Params): string {
  const { op, value, modifier } = cond
  if (op === 'is' && cond.field.json.length === 0) {
    const present = scope.embedPresent(cond.field.name)
    if (present !== null) {
      if (value.toLowerCase() === 'null') return `not (${present})`
      if (value.toLowerCase() === 'not_null') return present
      throw new ApiError(400, 'PGRST100', `failed to parse filter (is.${value})`)
    }
  }
  const column = scope.column(cond.field)
  const pattern = (v: string) => (op === 'like' || op === 'ilike' ? v.replaceAll('*', '%') : v)
  switch (op) {
    case 'is': {
      const word = value.toLowerCase()
      return word === 'not_null' ? `${column} is not null` : `${column} is ${word}`
    }
    case 'isdistinct':
      return `${column} is distinct from ${params.add(value)}`
    case 'in': {
      const items = splitTop(value.slice(1, -1))
        .map((v) => v.trim())
        .filter((v) => v !== '')
      if (items.length === 0) return 'false'
      return `${column} in (${items.map((v) => params.add(unquote(v))).join(', ')})`
    }
    case 'fts':
    case 'plfts':
    case 'phfts':
    case 'wfts': {
      const config = modifier ? `${params.add(modifier)}::regconfig, ` : ''
      return `${column} @@ ${tsFunctions[op]}(${config}${params.add(value)}::text)`
    }
  }
  const operator = comparisons[op]
  if (modifier === 'any' || modifier === 'all') {
    return `${column} ${operator} ${modifier}(${params.add(pattern(value))})`
  }
  return `${column} ${operator} ${params.add(pattern(value))}`
}
