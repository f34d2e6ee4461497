// The platform's own answers, as hosted Edge Functions give them (docs: functions
// "status-codes", "error-codes" and troubleshooting "edge-function-401-error-response").
// The function's handler never runs for any of these.

const json = (status: number, body: object, code?: string) =>
  Response.json(body, { status, headers: code ? { 'sb-error-code': code } : {} })

/** verify_jwt refused the Authorization header. */
export const unauthorized = (message: string) => json(401, { code: 401, message })

export const notFound = () =>
  json(404, { code: 'NOT_FOUND', message: 'Requested function was not found' }, 'NOT_FOUND')

export const methodNotAllowed = () =>
  json(405, { code: 'METHOD_NOT_ALLOWED', message: 'Method not allowed' }, 'METHOD_NOT_ALLOWED')

/** The module failed to load: syntax error, failed import, top-level throw, no handler. */
export const bootError = () =>
  json(
    503,
    { code: 'BOOT_ERROR', message: 'Worker failed to boot (please check logs)' },
    'BOOT_ERROR',
  )

/** The process died, or broke the connection, before answering. */
export const workerError = () =>
  json(
    500,
    { code: 'WORKER_ERROR', message: 'Function exited due to an error (please check logs)' },
    'WORKER_ERROR',
  )

/** No response started within the request idle timeout. */
export const idleTimeout = () =>
  json(
    504,
    { code: 'IDLE_TIMEOUT', message: 'Function did not respond within the request idle timeout' },
    'IDLE_TIMEOUT',
  )
