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

/** CORS for every service but Edge Functions, which answer their own preflight as hosted. */
export function cors(): MiddlewareHandler {
  return async (c, next) => {
    const origin = c.req.header('origin') ?? '*'
    if (c.req.method === 'OPTIONS' && !c.req.path.startsWith('/functions/v1')) {
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
    if (c.req.path.startsWith('/functions/v1')) return
    c.res.headers.set('access-control-allow-origin', origin)
    c.res.headers.set('access-control-allow-credentials', 'true')
    c.res.headers.set('access-control-expose-headers', exposeHeaders)
    c.res.headers.append('vary', 'Origin')
  }
}
