export const CONNECTION_LOST =
  'Lost the connection to the server. Check your connection and try again.'
export const SERVER_UNAVAILABLE = 'The server is not answering right now. Try again in a moment.'
export const SERVER_TOO_SLOW = 'The server took too long to answer. Try again in a moment.'

// What browsers, supabase-js and tus-js-client say when a request never got an answer:
// Chromium, Firefox and Safari's fetch failures, and tus's "response code: n/a".
const NETWORK_TEXT =
  /Failed to fetch|NetworkError when attempting to fetch|Load failed|network error|ERR_CONNECTION|ECONNREFUSED|response code: n\/a|\[object ProgressEvent\]/i
// supabase-js's wrappers around a fetch that threw (a 5xx AuthRetryableFetchError has a status).
const NETWORK_NAMES = new Set([
  'FunctionsFetchError',
  'FunctionsRelayError',
  'AuthRetryableFetchError',
])

type ErrorLike = { name?: unknown; message?: unknown; status?: unknown; statusCode?: unknown }

function field(error: unknown, key: keyof ErrorLike): unknown {
  return error && typeof error === 'object' ? (error as ErrorLike)[key] : undefined
}

/**
 * The human sentence for a failure of the connection rather than of the request: no answer
 * (fetch's TypeError, supabase-js's *FetchError, a cut TUS upload, the same text wrapped in a
 * pipeline's message), a request given up on (timeout or abort), or a 5xx from the server.
 * Undefined for anything else, which then has its own message.
 */
export function connectionProblem(error: unknown): string | undefined {
  const message = typeof error === 'string' ? error : String(field(error, 'message') ?? '')
  const name = String(field(error, 'name') ?? '')
  if (name === 'TimeoutError') return SERVER_TOO_SLOW
  if (name === 'AbortError') return CONNECTION_LOST
  const status = Number(field(error, 'status') ?? field(error, 'statusCode'))
  if (status >= 500 && status < 600) return SERVER_UNAVAILABLE
  if (NETWORK_NAMES.has(name) || NETWORK_TEXT.test(message)) return CONNECTION_LOST
  if (/^(Internal Server Error|Bad Gateway|Service Unavailable|Gateway Timeout)$/i.test(message))
    return SERVER_UNAVAILABLE
  return undefined
}

/** Whether a failure is the connection's (retrying later may work), not the request's. */
export function isConnectionProblem(error: unknown): boolean {
  return connectionProblem(error) !== undefined
}

/** A message a person can read, for anything a request may throw (or a worker's error text). */
export function errorMessage(error: unknown, fallback = 'Something went wrong. Please try again.') {
  const connection = connectionProblem(error)
  if (connection) return connection
  if (typeof error === 'string') return error.trim() || fallback
  // A bug's own words (TypeError, ReferenceError…) mean nothing to a person.
  if (error instanceof TypeError || error instanceof ReferenceError || error instanceof SyntaxError)
    return fallback
  const message = String(field(error, 'message') ?? '')
  return message && !/^(TypeError|ReferenceError|SyntaxError)\b/.test(message) ? message : fallback
}
