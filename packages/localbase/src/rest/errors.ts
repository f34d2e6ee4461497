// PostgREST's error JSON and status mapping (wire surface §2.6, PostgREST docs/references/errors.rst).

export type ErrorBody = {
  code: string
  details: unknown
  hint: string | null
  message: string
}

/** An error answered to the client as PostgREST would: status, JSON body and extra headers. */
export class ApiError extends Error {
  readonly status: number
  readonly body: ErrorBody
  readonly headers: Record<string, string>
  constructor(
    status: number,
    code: string,
    message: string,
    details: unknown = null,
    hint: string | null = null,
    headers: Record<string, string> = {},
  ) {
    super(message)
    this.status = status
    this.body = { code, details, hint, message }
    this.headers = headers
  }
}

/** PGRST100: the query string does not follow PostgREST's grammar. */
export function parseError(message: string, details: string | null = null): ApiError {
  return new ApiError(400, 'PGRST100', message, details)
}

export function columnNotFound(table: string, column: string): ApiError {
  return new ApiError(400, '42703', `column ${table}.${column} does not exist`)
}

type PgError = { code?: unknown; message?: unknown; detail?: unknown; hint?: unknown }

/** Maps a Postgres error to PostgREST's status and body; 42501 depends on who asked. */
export function fromPgError(error: unknown, role: string): ApiError {
  const pg = error as PgError
  if (typeof pg?.code !== 'string') {
    const message = error instanceof Error ? error.message : String(error)
    return new ApiError(500, 'PGRST000', message)
  }
  return new ApiError(
    pgStatus(pg.code, role),
    pg.code,
    String(pg.message ?? ''),
    typeof pg.detail === 'string' ? pg.detail : null,
    typeof pg.hint === 'string' ? pg.hint : null,
  )
}

// Connection and resource classes (08, 53) are 503 in PostgREST; postgrest-js retries
// those for seconds, and in one process they never mean "try again later", so 500 here.
function pgStatus(code: string, role: string): number {
  if (code === '42501') return role === 'anon' ? 401 : 403
  if (code === '23503' || code === '23505') return 409
  if (code === '25006') return 405
  if (code === '42883' || code === '42P01') return 404
  if (code === 'P0001') return 400
  const serverClasses = ['08', '09', '0L', '0P', '25', '28', '2D', '38', '39', '3B', '40']
  const cls = code.slice(0, 2)
  if (cls === '0L' || cls === '0P' || cls === '28') return 403
  if (serverClasses.includes(cls)) return 500
  if (['53', '54', '55', '57', '58', 'F0', 'HV', 'P0', 'XX'].includes(cls)) return 500
  return 400
}
