import type { Hono } from 'hono'
import { errors } from './errors.ts'
import { type Env, jsonBody, requester } from './request.ts'
import { iso } from './sql.ts'

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (ch) => `\\${ch}`)

// storage's continuation token: base64 of "l:<last name>\no:<order>" (src/storage/object.ts).
const encodeCursor = (last: string, order: string) =>
  Buffer.from(`l:${last}\no:${order}`).toString('base64')

function decodeCursor(cursor: string): string {
  const line = Buffer.from(cursor, 'base64')
    .toString()
    .split('\n')
    .find((l) => l.startsWith('l:'))
  if (!line) throw errors.invalidParameter('cursor')
  return line.slice(2)
}

/**
 * Keys under a prefix in name order, one page at a time. With a delimiter, everything below
 * the next `/` folds into one folder entry; a cursor after a folder skips all of its keys.
 */
const listSql = (order: 'asc' | 'desc') => `
  with matched as (
    select o.*, case when $6 and position('/' in substr(o.name, length($2) + 1)) > 0
      then left(o.name, length($2) + position('/' in substr(o.name, length($2) + 1))) end as folder
    from storage.objects o
    where o.bucket_id = $1 and o.name like $3 escape '\\'
      and ($4::text is null or (o.name collate "C" ${order === 'asc' ? '>' : '<'} $4
        and not (right($4, 1) = '/' and starts_with(o.name, $4))))
  ), entries as (
    select folder as name, null::json as object from matched where folder is not null group by folder
    union all
    select name, json_build_object('id', id, 'name', name, 'key', name, 'bucket_id', bucket_id,
      'owner', owner, 'owner_id', owner_id, 'version', version, 'metadata', metadata,
      'user_metadata', user_metadata, 'created_at', ${iso('created_at')},
      'updated_at', ${iso('updated_at')}, 'last_accessed_at', ${iso('last_accessed_at')})
    from matched where folder is null
  )
  select name, object::text as object from entries order by name collate "C" ${order} limit $5`

export function listV2Routes(app: Hono, env: Env): void {
  app.post('/object/list-v2/:bucket', async (c) => {
    const who = await requester(env.sc, c)
    const body = await jsonBody(c)
    const prefix = typeof body.prefix === 'string' ? body.prefix : ''
    const limit = Math.min(Number(body.limit ?? 1000), 1000)
    if (!Number.isInteger(limit) || limit < 1) throw errors.invalidParameter('limit')
    const sortBy = (body.sortBy ?? {}) as { column?: unknown; order?: unknown }
    if ((sortBy.column ?? 'name') !== 'name')
      throw errors.invalidParameter('sortBy', 'localbase lists v2 by name only')
    const order = sortBy.order === 'desc' ? 'desc' : 'asc'
    const after = typeof body.cursor === 'string' && body.cursor ? decodeCursor(body.cursor) : null
    const rows = await who.as('storage.object.list_v2', async (tx) => {
      const result = await tx.query<{ name: string; object: string | null }>(listSql(order), [
        c.req.param('bucket'),
        prefix,
        `${escapeLike(prefix)}%`,
        after,
        limit + 1,
        body.with_delimiter === true,
      ])
      return result.rows
    })
    const hasNext = rows.length > limit
    const page = rows.slice(0, limit)
    const folders = page
      .filter((r) => !r.object)
      .map((r) => `{"name":${JSON.stringify(r.name)},"key":${JSON.stringify(r.name)}}`)
    const objects = page.filter((r) => r.object).map((r) => r.object)
    const next = hasNext
      ? `,"nextCursor":${JSON.stringify(encodeCursor(page.at(-1)!.name, order))}`
      : ''
    return c.body(
      `{"hasNext":${hasNext},"folders":[${folders.join(',')}],"objects":[${objects.join(',')}]${next}}`,
      200,
      { 'content-type': 'application/json' },
    )
  })
}
