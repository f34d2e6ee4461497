import type { Hono } from 'hono'
import { errors } from './errors.ts'
import { type Env, jsonBody, requester } from './request.ts'
import { iso } from './sql.ts'

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (ch) => `\\${ch}`)

type Cursor = { name: string; order?: string; column?: string; after?: string }

// storage's continuation token: base64 of "l:<last name>\no:<order>\nc:<column>\na:<time>".
const cursorKeys = { l: 'name', o: 'order', c: 'column', a: 'after' } as const

function encodeCursor(cursor: Cursor): string {
  const lines = Object.entries(cursorKeys)
    .filter(([, field]) => cursor[field])
    .map(([k, field]) => `${k}:${cursor[field]}`)
  return Buffer.from(lines.join('\n')).toString('base64')
}

function decodeCursor(token: string): Cursor {
  const cursor: Partial<Cursor> = {}
  for (const line of Buffer.from(token, 'base64').toString().split('\n')) {
    const field = cursorKeys[line.slice(0, 1) as keyof typeof cursorKeys]
    if (field && line[1] === ':') cursor[field] = line.slice(2)
  }
  if (cursor.name === undefined) throw errors.invalidParameter('cursor')
  return cursor as Cursor
}

/**
 * Keys under a prefix, one page at a time. With a delimiter, everything below the next `/`
 * folds into one folder entry (dated by its first object in the sort order); the cursor is
 * applied to entries, so a page after a folder never repeats that folder's keys.
 */
function listSql(column: string, order: 'asc' | 'desc'): string {
  const byName = column === 'name'
  const op = order === 'asc' ? '>' : '<'
  const at = byName ? 'null::timestamptz' : `date_trunc('milliseconds', ${column})`
  return `
  with matched as (
    select o.*, case when $6 and position('/' in substr(o.name, length($2) + 1)) > 0
      then left(o.name, length($2) + position('/' in substr(o.name, length($2) + 1))) end as folder
    from storage.objects o where o.bucket_id = $1 and o.name like $3 escape '\\'
  ), entries as (
    select folder as name, ${order === 'asc' ? 'min' : 'max'}(${at}) as sort_at, null::json as object
      from matched where folder is not null group by folder
    union all
    select name, ${at}, json_build_object('id', id, 'name', name, 'key', name,
      'bucket_id', bucket_id, 'owner', owner, 'owner_id', owner_id, 'version', version,
      'metadata', metadata, 'user_metadata', user_metadata, 'created_at', ${iso('created_at')},
      'updated_at', ${iso('updated_at')}, 'last_accessed_at', ${iso('last_accessed_at')})
    from matched where folder is null
  )
  select name, object::text as object, ${iso('sort_at')} as sort_at from entries
  where $4::text is null or ${byName ? `name collate "C" ${op} $4` : `(sort_at, name collate "C") ${op} ($7::timestamptz, $4)`}
  order by ${byName ? '' : `sort_at ${order}, `}name collate "C" ${order} limit $5`
}

const sortColumns = new Set(['name', 'created_at', 'updated_at'])

export function listV2Routes(app: Hono, env: Env): void {
  app.post('/object/list-v2/:bucket', async (c) => {
    const who = await requester(env.sc, c)
    const body = await jsonBody(c)
    const prefix = typeof body.prefix === 'string' ? body.prefix : ''
    const limit = Math.min(Number(body.limit ?? 1000), 1000)
    if (!Number.isInteger(limit) || limit < 1) throw errors.invalidParameter('limit')
    const cursor = typeof body.cursor === 'string' && body.cursor ? decodeCursor(body.cursor) : null
    const sortBy = (body.sortBy ?? {}) as { column?: unknown; order?: unknown }
    const column = String(cursor?.column ?? sortBy.column ?? 'name')
    if (!sortColumns.has(column)) throw errors.invalidParameter('sortBy')
    const order = (cursor?.order ?? sortBy.order) === 'desc' ? 'desc' : 'asc'
    const rows = await who.as('storage.object.list_v2', async (tx) => {
      const result = await tx.query<{ name: string; object: string | null; sort_at: string }>(
        listSql(column, order),
        [
          c.req.param('bucket'),
          prefix,
          `${escapeLike(prefix)}%`,
          cursor?.name ?? null,
          limit + 1,
          body.with_delimiter === true,
          // $7, the time of the last entry, only exists when sorting by a time column
          ...(column === 'name' ? [] : [cursor?.after ?? null]),
        ],
      )
      return result.rows
    })
    const hasNext = rows.length > limit
    const page = rows.slice(0, limit)
    const last = page.at(-1)
    const next =
      hasNext && last
        ? encodeCursor({
            name: last.name,
            order,
            column: column === 'name' ? undefined : column,
            after: column === 'name' ? undefined : last.sort_at,
          })
        : undefined
    const folders = page
      .filter((r) => !r.object)
      .map((r) => JSON.stringify({ name: r.name, key: r.name.slice(0, -1) }))
    const objects = page.filter((r) => r.object).map((r) => r.object)
    return c.body(
      `{"hasNext":${hasNext},"folders":[${folders.join(',')}],"objects":[${objects.join(',')}]` +
        `${next ? `,"nextCursor":${JSON.stringify(next)}` : ''}}`,
      200,
      { 'content-type': 'application/json' },
    )
  })
}
