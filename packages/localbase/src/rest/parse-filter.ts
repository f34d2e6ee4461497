import { parseError } from './errors.ts'
import { type Field, parseField, splitTop } from './tokens.ts'

// Horizontal filters, logic trees and ordering (wire surface §2.3).

export const operators = new Set([
  'eq',
  'neq',
  'gt',
  'gte',
  'lt',
  'lte',
  'like',
  'ilike',
  'match',
  'imatch',
  'in',
  'is',
  'isdistinct',
  'fts',
  'plfts',
  'phfts',
  'wfts',
  'cs',
  'cd',
  'ov',
  'sl',
  'sr',
  'nxr',
  'nxl',
  'adj',
])
const quantifiable = new Set([
  'eq',
  'neq',
  'gt',
  'gte',
  'lt',
  'lte',
  'like',
  'ilike',
  'match',
  'imatch',
])
const ftsOperators = new Set(['fts', 'plfts', 'phfts', 'wfts'])

export type OpCond = {
  kind: 'op'
  field: Field
  negate: boolean
  op: string
  /** `(any)`/`(all)` quantifier, or the text search config for fts operators. */
  modifier: string | null
  value: string
}
export type LogicCond = { kind: 'logic'; op: 'and' | 'or'; negate: boolean; items: Cond[] }
export type Cond = OpCond | LogicCond

export type OrderTerm = {
  /** Set when ordering by a column of a to-one embed: `rel(col)`. */
  relation: string | null
  field: Field
  desc: boolean
  nulls: 'first' | 'last' | null
}

const filterPattern = /^(not\.)?([a-z]+)(?:\(([^)]*)\))?\.([\s\S]*)$/

/** Parses `[not.]op[(mod)].value` for the column `field`. */
export function parseFilter(field: Field, text: string): OpCond {
  const match = filterPattern.exec(text)
  const fail = () =>
    parseError(
      `failed to parse filter (${text})`,
      `unexpected "${text.slice(0, 20)}" expecting an operator such as eq, in or is`,
    )
  const [, not, op = '', modifier = null, value = ''] = match ?? []
  if (!match || !operators.has(op)) throw fail()
  if (modifier !== null) {
    const quantified = quantifiable.has(op) && (modifier === 'any' || modifier === 'all')
    if (!quantified && !(ftsOperators.has(op) && /^[\w.]+$/.test(modifier))) throw fail()
  }
  if (
    op === 'is' &&
    !['null', 'not_null', 'true', 'false', 'unknown'].includes(value.toLowerCase())
  ) {
    throw parseError(
      `failed to parse filter (${text})`,
      `unexpected "${value}" expecting null, not_null, true, false or unknown`,
    )
  }
  if (op === 'in' && !(value.startsWith('(') && value.endsWith(')'))) {
    throw parseError(`failed to parse filter (${text})`, 'unexpected end of input expecting "("')
  }
  return { kind: 'op', field, negate: Boolean(not), op, modifier, value }
}

/** Parses a logic tree value such as `(a.eq.1,and(b.gt.2,c.lt.3))`. */
export function parseLogic(op: 'and' | 'or', negate: boolean, text: string): LogicCond {
  if (!text.startsWith('(') || !text.endsWith(')')) {
    throw parseError(
      `failed to parse logic tree (${text})`,
      'unexpected end of input expecting "("',
    )
  }
  const items = splitTop(text.slice(1, -1)).map((part) => parseLogicItem(part.trim(), text))
  return { kind: 'logic', op, negate, items }
}

function parseLogicItem(text: string, whole: string): Cond {
  const nested = /^(not\.)?(and|or)(\([\s\S]*\))$/.exec(text)
  if (nested) return parseLogic(nested[2] as 'and' | 'or', Boolean(nested[1]), nested[3] ?? '')
  const dot = text.indexOf('.')
  const field = dot > 0 ? parseField(text.slice(0, dot)) : null
  if (!field) {
    throw parseError(
      `failed to parse logic tree (${whole})`,
      `unexpected "${text}" expecting a filter`,
    )
  }
  return parseFilter(field, text.slice(dot + 1))
}

const orderPattern = /^([^.()]+?)(?:\(([^()]+)\))?((?:\.(?:asc|desc|nullsfirst|nullslast))*)$/

export function parseOrder(text: string): OrderTerm[] {
  return splitTop(text).map((part) => {
    const match = orderPattern.exec(part.trim())
    const fail = () =>
      parseError(`failed to parse order (${text})`, `unexpected "${part}" expecting a column`)
    if (!match) throw fail()
    const [, head = '', inner, modifiers = ''] = match
    const field = parseField(inner ?? head)
    if (!field) throw fail()
    const mods = modifiers.split('.').filter(Boolean)
    return {
      relation: inner ? head.trim() : null,
      field,
      desc: mods.includes('desc'),
      nulls: mods.includes('nullsfirst') ? 'first' : mods.includes('nullslast') ? 'last' : null,
    }
  })
}
