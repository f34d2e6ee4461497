// postgres_changes subscription params, parsed as Realtime's
// PostgresCdcRls.Subscriptions.parse_subscription_params does.

export const OPERATORS = [
  'eq',
  'neq',
  'lt',
  'lte',
  'gt',
  'gte',
  'in',
  'like',
  'ilike',
  'is',
  'match',
  'imatch',
  'isdistinct',
]

export type Filter = { column: string; op: string; value: string; negate: boolean }

export type Subscription = {
  event: '*' | 'INSERT' | 'UPDATE' | 'DELETE'
  schema: string
  table: string
  filters: Filter[]
  /** Columns to send (the primary key always goes too); null for all. */
  select: string[] | null
}

type Parsed = { ok: true; value: Subscription } | { ok: false; error: string }

export function parseSubscription(params: Record<string, unknown>): Parsed {
  const parsed = parseTarget(params)
  if (!parsed.ok) return parsed
  const { select } = params
  if (typeof select === 'string')
    return {
      ok: false,
      error:
        'Error parsing `select` params: expected a list of column name strings, e.g. select: ["col1", "col2"]',
    }
  const columns = Array.isArray(select) ? select.filter((c) => typeof c === 'string') : []
  if (columns.length && (parsed.value.schema === '*' || parsed.value.table === '*'))
    return {
      ok: false,
      error:
        'Column selection is not supported for wildcard subscriptions. Provide an explicit schema and table name.',
    }
  return { ok: true, value: { ...parsed.value, select: columns.length ? columns : null } }
}

function parseTarget(params: Record<string, unknown>): Parsed {
  const { schema, table, filter } = params
  const upper = typeof params.event === 'string' ? params.event.toUpperCase() : '*'
  const event = upper === 'INSERT' || upper === 'UPDATE' || upper === 'DELETE' ? upper : '*'
  const has = (key: string) => key in params && params[key] !== undefined
  if (typeof schema === 'string' && typeof table === 'string' && typeof filter === 'string') {
    const filters = parseFilters(filter)
    if (!filters.ok)
      return { ok: false, error: `Error parsing \`filter\` params: ${filters.error}` }
    return { ok: true, value: { event, schema, table, filters: filters.value, select: null } }
  }
  if (typeof schema === 'string' && typeof table === 'string' && !has('filter'))
    return { ok: true, value: { event, schema, table, filters: [], select: null } }
  if (typeof schema === 'string' && !has('table') && !has('filter'))
    return { ok: true, value: { event, schema, table: '*', filters: [], select: null } }
  if (typeof table === 'string' && !has('schema') && !has('filter'))
    return { ok: true, value: { event, schema: 'public', table, filters: [], select: null } }
  return {
    ok: false,
    error:
      'No subscription params provided. Please provide at least a `schema` or `table` to subscribe to',
  }
}

function parseFilters(text: string): { ok: true; value: Filter[] } | { ok: false; error: string } {
  if (!text.trim()) return { ok: true, value: [] }
  const filters: Filter[] = []
  for (const segment of splitTopLevel(text.trim())) {
    const trimmed = segment.trim()
    if (!trimmed) return { ok: false, error: 'filter must not contain empty segments' }
    const eq = trimmed.indexOf('=')
    if (eq < 0) return { ok: false, error: JSON.stringify([trimmed]) }
    const column = trimmed.slice(0, eq)
    let rest = trimmed.slice(eq + 1)
    const negate = rest.startsWith('not.')
    if (negate) rest = rest.slice(4)
    const dot = rest.indexOf('.')
    if (dot < 0) return { ok: false, error: JSON.stringify([rest]) }
    const op = rest.slice(0, dot)
    const value = rest.slice(dot + 1)
    if (!OPERATORS.includes(op)) return { ok: false, error: JSON.stringify([op, value]) }
    if (op === 'in') {
      if (!(value.startsWith('(') && value.endsWith(')') && value.length >= 2))
        return { ok: false, error: '`in` filter value must be wrapped by parentheses' }
      filters.push({ column, op, value: `{${value.slice(1, -1)}}`, negate })
    } else {
      filters.push({ column, op, value: unquote(value), negate })
    }
  }
  return { ok: true, value: filters }
}

// Splits on commas outside parentheses and double quotes.
function splitTopLevel(text: string): string[] {
  const parts: string[] = []
  let depth = 0
  let quoted = false
  let current = ''
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!
    if (quoted && char === '\\') {
      current += char + (text[++i] ?? '')
      continue
    }
    if (char === '"') quoted = !quoted
    else if (!quoted && char === '(') depth++
    else if (!quoted && char === ')') depth = Math.max(0, depth - 1)
    else if (!quoted && depth === 0 && char === ',') {
      parts.push(current)
      current = ''
      continue
    }
    current += char
  }
  parts.push(current)
  return parts
}

function unquote(value: string): string {
  const match = /^"((?:[^"\\]|\\.)*)"$/.exec(value)
  return match ? match[1]!.replace(/\\(.)/g, '$1') : value
}
