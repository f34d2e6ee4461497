import type { MiddlewareHandler } from 'hono'

// docs/supabase-wire-surface.md §1.4: every header supabase-js may send, and the
// headers a browser must be allowed to read (Content-Range, or `count` is null).
const allowHeaders = [
  'authorization',
  'apikey',
  'x-client-info',
  'content-type',
  'accept',
  'accept-profile',
  'content-profile',
  'prefer',
  'range',
  'range-unit',
  'x-upsert',
  'x-supabase-api-version',
  'x-retry-count',
  'cache-control',
  'x-metadata',
  'x-region',
  'traceparent',
  'tracestate',
  'baggage',
  'tus-resumable',
  'upload-length',
  'upload-offset',
  'upload-metadata',
  'upload-defer-length',
  'upload-concat',
  'x-http-method-override',
  'x-signature',
].join(', ')
const exposeHeaders = [
  'Content-Encoding',
  'Content-Location',
  'Content-Range',
  'Content-Type',
  'Content-Disposition',
  'Date',
  'Location',
  'Server',
  'Transfer-Encoding',
  'Range-Unit',
  'X-Supabase-Api-Version',
  'X-Sb-Error-Code',
  'Upload-Offset',
  'Upload-Length',
  'Tus-Resumable',
  'Tus-Version',
  'Tus-Max-Size',
  'Tus-Extension',
  'Upload-Expires',
  'ETag',
].join(', ')

/**
 * Paths the gateway sends no CORS headers for: Edge Functions answer their own preflight, as
 * hosted, and the dev mailbox must stay unreadable to pages on other origins (its links sign
 * people in).
 */
const withoutCors = (path: string) =>
  path.startsWith('/functions/v1') ||
  path === '/auth/v1/mailbox' ||
  path.startsWith('/auth/v1/mailbox/')

/** CORS for every service, reflecting the caller's origin. */
export function cors(): MiddlewareHandler {
  return async (c, next) => {
    if (withoutCors(c.req.path)) return next()
    const origin = c.req.header('origin') ?? '*'
    if (c.req.method === 'OPTIONS') {
      return new Response(null, {
        status: 204,
        headers: {
          'access-control-allow-origin': origin,
          'access-control-allow-credentials': 'true',
          'access-control-allow-methods': 'GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS',
          'access-control-allow-headers':
            c.req.header('access-control-request-headers') ?? allowHeaders,
          'access-control-max-age': '86400',
          vary: 'Origin',
        },
      })
    }
    await next()
    c.res.headers.set('access-control-allow-origin', origin)
    c.res.headers.set('access-control-allow-credentials', 'true')
    c.res.headers.set('access-control-expose-headers', exposeHeaders)
    c.res.headers.append('vary', 'Origin')
  }
}
