import { ApiError, parseError } from './errors.ts'
import { parseFilter, parseLogic, parseOrder } from './parse-filter.ts'
import { type Embed, emptyNode, parseSelect, type QueryNode } from './parse-select.ts'
import { parseField, splitTop, unquote } from './tokens.ts'

// Query string → one query tree: the select list, with filters, order and paging on each level.

export type ParsedQuery = {
  root: QueryNode
  onConflict: string[] | null
  columns: string[] | null
}

const embedKeys = new Set(['order', 'limit', 'offset', 'and', 'or'])

/** `skip` holds parameters that are not filters, such as RPC arguments. */
export function parseQuery(params: URLSearchParams, skip: Set<string> = new Set()): ParsedQuery {
  const root = emptyNode(parseSelect(params.get('select') ?? '*'))
  let onConflict: string[] | null = null
  let columns: string[] | null = null
  for (const [key, value] of params) {
    if (key === 'select' || skip.has(key)) continue
    if (key === 'on_conflict') onConflict = names(value)
    else if (key === 'columns') columns = names(value)
    else applyParam(root, key, value)
  }
  return { root, onConflict, columns }
}

function names(value: string): string[] {
  return splitTop(value)
    .map((n) => unquote(n.trim()))
    .filter(Boolean)
}

function applyParam(root: QueryNode, key: string, value: string): void {
  const segments = key.split('.')
  const last = segments[segments.length - 1] ?? ''
  const negated = (last === 'and' || last === 'or') && segments[segments.length - 2] === 'not'
  const pathEnd = embedKeys.has(last) ? segments.length - (negated ? 2 : 1) : segments.length - 1
  const node = findNode(root, segments.slice(0, pathEnd))
  switch (embedKeys.has(last) ? last : 'filter') {
    case 'order':
      node.order = parseOrder(value)
      return
    case 'limit':
      node.limit = count(key, value)
      return
    case 'offset':
      node.offset = count(key, value)
      return
    case 'and':
    case 'or':
      node.filters.push(parseLogic(last as 'and' | 'or', negated, value))
      return
    default: {
      const field = parseField(last)
      if (!field) throw parseError(`failed to parse filter (${key})`)
      node.filters.push(parseFilter(field, value))
    }
  }
}

function count(key: string, value: string): number {
  if (!/^\d+$/.test(value)) {
    throw parseError(
      `failed to parse ${key} parameter (${value})`,
      'expecting a non-negative integer',
    )
  }
  return Number(value)
}

function findNode(root: QueryNode, path: string[]): QueryNode {
  let node = root
  for (const name of path) {
    const embed = node.select.find(
      (item): item is { kind: 'embed'; embed: Embed } =>
        item.kind === 'embed' && (item.embed.alias ?? item.embed.name) === name,
    )
    if (!embed) {
      throw new ApiError(
        400,
        'PGRST108',
        `'${name}' is not an embedded resource in this request`,
        null,
        `Verify that '${name}' is included in the 'select' query parameter.`,
      )
    }
    node = embed.embed.node
  }
  return node
}
