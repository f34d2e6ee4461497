import { ApiError } from './errors.ts'
import type { QueryNode } from './parse-select.ts'
import type { Output, Preferences } from './preferences.ts'
import type { Page } from './read.ts'
import type { Outcome, ResultRow } from './respond.ts'

// What a request compiles to: one statement, and how to turn its one row into the answer.

export type Plan = {
  sql: string
  values: unknown[]
  /** Runs inside the transaction; throwing an ApiError here rolls the statement back. */
  finish(row: ResultRow): Outcome
  /**
   * Whether finish may refuse the result (PGRST116, PGRST124, PGRST103): a write must then
   * stay open until finish has run; any other commits with its statement.
   */
  refusable: boolean
  /** Runs read-only: GET and HEAD, and calls of functions that are not VOLATILE. */
  readOnly: boolean
  rollback: boolean
  /** Queued as bulk work: calls of functions declared bulk, and large many-row writes (isBulkWrite). */
  bulk?: boolean
}

export type RestRequest = {
  method: string
  schema: string
  name: string
  params: URLSearchParams
  headers: Headers
  body: string
  prefs: Preferences
  output: Output
  maxRows: number | null
}

/** limit/offset from the query, else from a `Range: a-b` header, capped by max_rows. */
export function pageOf(node: QueryNode, range: string | null, maxRows: number | null): Page {
  let limit = node.limit
  let offset = node.offset ?? 0
  const match = range ? /^\s*(?:items=)?(\d+)-(\d*)\s*$/.exec(range) : null
  if (match && node.limit === null && node.offset === null) {
    offset = Number(match[1])
    if (match[2] !== '') {
      const upper = Number(match[2])
      if (upper < offset) {
        throw new ApiError(
          416,
          'PGRST103',
          'Requested range not satisfiable',
          'The lower boundary must be lower than or equal to the upper boundary in the Range header.',
        )
      }
      limit = upper - offset + 1
    }
  }
  if (maxRows !== null) limit = Math.min(limit ?? maxRows, maxRows)
  return { limit, offset }
}

/** Whether max-affected is enforced: handling=strict with a max-affected. */
export const strictMaxAffected = (prefs: Preferences) => prefs.strict && prefs.maxAffected !== null

/** PGRST124: handling=strict with max-affected, checked before the transaction commits. */
export function checkMaxAffected(prefs: Preferences, rows: number): void {
  if (strictMaxAffected(prefs) && rows > prefs.maxAffected!) {
    throw new ApiError(
      400,
      'PGRST124',
      'Query result exceeds max-affected preference constraint',
      `The query affects ${rows} rows`,
    )
  }
}
