import type { Context } from 'hono'

// GoTrue's error shapes (internal/api/errors.go, docs §3.2): clients that send
// X-Supabase-Api-Version >= 2024-01-01 get {code, message}; older ones {code, error_code, msg}.

export const API_VERSION = '2024-01-01'

export class AuthError extends Error {
  readonly status: number
  readonly code: string
  /** Extra top-level fields, e.g. `weak_password: {reasons}`. */
  readonly extra: Record<string, unknown>
  constructor(status: number, code: string, message: string, extra: Record<string, unknown> = {}) {
    super(message)
    this.status = status
    this.code = code
    this.extra = extra
  }
}

export const badRequest = (code: string, message: string) => new AuthError(400, code, message)
export const validation = (message: string) => new AuthError(400, 'validation_failed', message)
export const unprocessable = (code: string, message: string) => new AuthError(422, code, message)
export const forbidden = (code: string, message: string) => new AuthError(403, code, message)

export function weakPassword(message: string, reasons: string[]): AuthError {
  return new AuthError(422, 'weak_password', message, { weak_password: { reasons } })
}

function versioned(header: string | undefined): boolean {
  return !!header && /^\d{4}-\d{2}-\d{2}$/.test(header.trim()) && header.trim() >= API_VERSION
}

export function renderError(c: Context, error: AuthError): Response {
  const body = versioned(c.req.header('x-supabase-api-version'))
    ? { code: error.code, message: error.message, ...error.extra }
    : { code: error.status, error_code: error.code, msg: error.message, ...error.extra }
  return c.json(body, error.status as 400, {
    'x-sb-error-code': error.code,
    'x-supabase-api-version': API_VERSION,
  })
}
