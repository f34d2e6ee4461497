import { ApiError } from './errors.ts'
import type { Output, Preferences } from './preferences.ts'
import type { Page } from './read.ts'

// Status, Content-Range and body shaping (wire surface §2.5).

export type Outcome = { status: number; body: string | null; headers: Record<string, string> }

/** What the one statement returns: the rows as JSON text, how many, and the total if counted. */
export type ResultRow = {
  body: string
  page: number
  total: number | null
  location?: string
  /** For upserts: how many rows were new rather than updated. */
  inserted?: number
  /** The body is already CSV. */
  csv?: boolean
}

/** 406 PGRST116 unless exactly one row came back (PostgREST 14 wording). */
export function checkSingular(output: Output, rows: number): void {
  if (output.kind === 'object' && rows !== 1) {
    throw new ApiError(
      406,
      'PGRST116',
      'Cannot coerce the result to a single JSON object',
      `The result contains ${rows} rows`,
    )
  }
}

export function shapeBody(
  output: Output,
  body: string,
  csv = false,
): { body: string; type: string } {
  if (output.kind === 'object') {
    return {
      body: body.slice(1, -1).trim(),
      type: 'application/vnd.pgrst.object+json; charset=utf-8',
    }
  }
  if (output.kind === 'csv')
    return { body: csv ? body : toCsv(body), type: 'text/csv; charset=utf-8' }
  return { body, type: 'application/json; charset=utf-8' }
}

function csvCell(value: unknown): string {
  if (value === null || value === undefined) return ''
  const text = typeof value === 'object' ? JSON.stringify(value) : String(value)
  return /[",\n\r]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text
}

function toCsv(json: string): string {
  const parsed: unknown = JSON.parse(json)
  const rows = (Array.isArray(parsed) ? parsed : [parsed]) as unknown[]
  if (!rows.every((r) => typeof r === 'object' && r !== null)) return rows.map(csvCell).join('\n')
  if (rows.length === 0) return ''
  const keys = Object.keys(rows[0] ?? {})
  return [
    keys.map(csvCell),
    ...rows.map((r) => keys.map((k) => csvCell((r as Record<string, unknown>)[k]))),
  ]
    .map((cells) => cells.join(','))
    .join('\n')
}

/** A read's answer: 200, or 206 when a counted total exceeds the page; 416 past the end. */
export function readOutcome(row: ResultRow, output: Output, page: Page, head: boolean): Outcome {
  const { offset } = page
  if (row.total !== null && offset > 0 && offset > row.total) {
    throw new ApiError(
      416,
      'PGRST103',
      'Requested range not satisfiable',
      `An offset of ${offset} was requested, but there are only ${row.total} rows.`,
      null,
      { 'content-range': `*/${row.total}` },
    )
  }
  checkSingular(output, row.page)
  const range = row.page > 0 ? `${offset}-${offset + row.page - 1}` : '*'
  const total = row.total ?? '*'
  const shaped = shapeBody(output, row.body, row.csv)
  const partial = row.total !== null && row.page < row.total
  return {
    status: partial ? 206 : 200,
    body: head ? null : shaped.body,
    headers: { 'content-range': `${range}/${total}`, 'content-type': shaped.type },
  }
}

/** A mutation's answer: 201 for inserts, 200/204 otherwise; body only with representation. */
export function mutationOutcome(
  row: ResultRow,
  output: Output,
  prefs: Preferences,
  insert: boolean,
): Outcome {
  // An upsert that only updated existing rows is 200, as in PostgREST.
  const created = insert && !(prefs.resolution === 'merge-duplicates' && row.inserted === 0)
  const headers: Record<string, string> = { 'content-range': `*/${row.total ?? '*'}` }
  const applied = preferenceApplied(prefs)
  if (applied) headers['preference-applied'] = applied
  if (row.location) headers.location = row.location
  if (prefs.return !== 'representation') {
    return { status: created ? 201 : insert ? 200 : 204, body: null, headers }
  }
  const shaped = shapeBody(output, row.body, row.csv)
  headers['content-type'] = shaped.type
  if (row.page > 0) headers['content-range'] = `0-${row.page - 1}/${row.total ?? '*'}`
  return { status: created ? 201 : 200, body: shaped.body, headers }
}

export function preferenceApplied(prefs: Preferences): string {
  const applied: string[] = []
  if (prefs.resolution) applied.push(`resolution=${prefs.resolution}`)
  if (prefs.missingDefault) applied.push('missing=default')
  if (prefs.return) applied.push(`return=${prefs.return}`)
  if (prefs.count) applied.push(`count=${prefs.count}`)
  if (prefs.rollback) applied.push('tx=rollback')
  if (prefs.strict) applied.push('handling=strict')
  if (prefs.maxAffected !== null && prefs.strict) applied.push(`max-affected=${prefs.maxAffected}`)
  return applied.join(', ')
}
