import type { Context } from 'hono'
import { errors } from './errors.ts'
import type { Env } from './request.ts'
import type { ObjectRow } from './sql.ts'

/** `?download` → attachment, `?download=name` → attachment with that file name. */
function disposition(c: Context): string | null {
  const value = c.req.query('download')
  if (value === undefined) return null
  if (!value) return 'attachment;'
  const encoded = encodeURIComponent(value)
  return `attachment; filename=${encoded}; filename*=UTF-8''${encoded}`
}

function parseRange(header: string, size: number): { start: number; end: number } | null {
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim())
  if (!match || (!match[1] && !match[2])) throw errors.invalidRange()
  let start: number
  let end: number
  if (!match[1]) {
    start = Math.max(size - Number(match[2]), 0)
    end = size - 1
  } else {
    start = Number(match[1])
    end = match[2] ? Math.min(Number(match[2]), size - 1) : size - 1
  }
  if (start > end || start >= size) return null
  return { start, end }
}

/** Answers with an object's bytes and the headers storage sends (and HEAD with none). */
export async function serveObject(c: Context, env: Env, row: ObjectRow): Promise<Response> {
  const size = row.version ? await env.store.size(row.version) : null
  if (size === null || !row.version) throw errors.noSuchKey()
  const meta = row.metadata
  const headers = new Headers({
    'content-type': meta?.mimetype ?? 'application/octet-stream',
    'cache-control': meta?.cacheControl ?? 'no-cache',
    'last-modified': new Date(meta?.lastModified ?? row.updated_at).toUTCString(),
    'accept-ranges': 'bytes',
  })
  if (meta?.eTag) headers.set('etag', meta.eTag)
  const attachment = disposition(c)
  if (attachment) headers.set('content-disposition', attachment)
  if (meta?.eTag && c.req.header('if-none-match') === meta.eTag) {
    return new Response(null, { status: 304, headers })
  }

  const rangeHeader = c.req.header('range')
  const range = rangeHeader ? parseRange(rangeHeader, size) : undefined
  if (range === null) {
    headers.set('content-range', `bytes */${size}`)
    return new Response(null, { status: 416, headers })
  }
  const length = range ? range.end - range.start + 1 : size
  headers.set('content-length', String(length))
  if (range) headers.set('content-range', `bytes ${range.start}-${range.end}/${size}`)
  const status = range ? 206 : 200
  if (c.req.method === 'HEAD' || length === 0) return new Response(null, { status, headers })
  const stream = await env.store.read(row.version, range?.start ?? 0, range?.end ?? size - 1)
  return new Response(stream, { status, headers })
}
