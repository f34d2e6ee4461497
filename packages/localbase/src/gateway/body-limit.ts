import type { MiddlewareHandler } from 'hono'
import { bodyLimit as honoBodyLimit } from 'hono/body-limit'

/**
 * Refuses request bodies over `maxBytes` with 413 before they are read in full (Storage,
 * TUS and Functions stream their own bodies and set their own limits).
 */
export function bodyLimit(maxBytes: number): MiddlewareHandler {
  const megabytes = Math.round(maxBytes / (1024 * 1024))
  const counted = honoBodyLimit({
    maxSize: maxBytes,
    onError: (c) =>
      c.json(
        { code: '413', message: `Request body is larger than the ${megabytes} MB limit` },
        413,
      ),
  })
  // Hono's check reads `request.body`, which makes @hono/node-server build a full fetch
  // Request around the socket (and then read the body through web streams) for every call.
  // A request without a body, or of a declared length, is judged from its headers alone, as
  // Hono's check would judge it; only a body of unknown length is counted as it streams.
  return async (c, next) => {
    const { method } = c.req
    if (method === 'GET' || method === 'HEAD') return next()
    const length = c.req.header('content-length')
    if (length === undefined || c.req.header('transfer-encoding') !== undefined) {
      return counted(c, next)
    }
    return parseInt(length, 10) > maxBytes ? counted(c, next) : next()
  }
}
