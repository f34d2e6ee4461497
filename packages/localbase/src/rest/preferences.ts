import { ApiError } from './errors.ts'

// The Prefer and Accept headers (wire surface §2.4).

export type Preferences = {
  return: 'minimal' | 'representation' | 'headers-only' | null
  count: 'exact' | 'planned' | 'estimated' | null
  resolution: 'merge-duplicates' | 'ignore-duplicates' | null
  missingDefault: boolean
  rollback: boolean
  strict: boolean
  maxAffected: number | null
}

export function parsePrefer(header: string | null): Preferences {
  const prefs: Preferences = {
    return: null,
    count: null,
    resolution: null,
    missingDefault: false,
    rollback: false,
    strict: false,
    maxAffected: null,
  }
  for (const part of (header ?? '').split(',')) {
    const [key, value = ''] = part
      .trim()
      .split('=')
      .map((s) => s.trim())
    if (key === 'return' && ['minimal', 'representation', 'headers-only'].includes(value)) {
      prefs.return = value as Preferences['return']
    } else if (key === 'count' && ['exact', 'planned', 'estimated'].includes(value)) {
      prefs.count = value as Preferences['count']
    } else if (key === 'resolution' && ['merge-duplicates', 'ignore-duplicates'].includes(value)) {
      prefs.resolution = value as Preferences['resolution']
    } else if (key === 'missing') prefs.missingDefault = value === 'default'
    else if (key === 'tx') prefs.rollback = value === 'rollback'
    else if (key === 'handling') prefs.strict = value === 'strict'
    else if (key === 'max-affected' && /^\d+$/.test(value)) prefs.maxAffected = Number(value)
  }
  return prefs
}

export type Output = { kind: 'json' | 'object' | 'csv'; stripNulls: boolean }

const mediaTypes: Record<string, Output['kind']> = {
  '*/*': 'json',
  'application/*': 'json',
  'application/json': 'json',
  'application/vnd.pgrst.array+json': 'json',
  'application/vnd.pgrst.object+json': 'object',
  'application/vnd.pgrst.object': 'object',
  'text/csv': 'csv',
  'text/*': 'csv',
}

/** The first media type in Accept that PostgREST can produce; 406 PGRST107 when none. */
export function parseAccept(header: string | null): Output {
  if (!header || !header.trim()) return { kind: 'json', stripNulls: false }
  for (const entry of header.split(',')) {
    const [type, ...params] = entry.split(';').map((s) => s.trim().toLowerCase())
    const kind = mediaTypes[type ?? '']
    if (kind) return { kind, stripNulls: params.includes('nulls=stripped') }
  }
  throw new ApiError(406, 'PGRST107', `None of these media types are available: ${header}`)
}
