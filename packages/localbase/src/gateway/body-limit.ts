import type { MiddlewareHandler } from 'hono'
import { bodyLimit as honoBodyLimit } from 'hono/body-limit'

/**
 * Refuses request bodies over `maxBytes` with 413 before they are read in full (Storage,
 * TUS and Functions stream their own bodies and set their own limits).
 */
export function bodyLimit(maxBytes: number): MiddlewareHandler {
  const megabytes = Math.round(maxBytes / (1024 * 1024))
  return honoBodyLimit({
    maxSize: maxBytes,
    onError: (c) =>
      c.json(
        { code: '413', message: `Request body is larger than the ${megabytes} MB limit` },
        413,
      ),
  })
}
