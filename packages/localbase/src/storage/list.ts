import type { Hono } from 'hono'
import { errors } from './errors.ts'
import { type Env, jsonBody, requester } from './request.ts'
import { iso } from './sql.ts'

const sortColumns = new Set(['name', 'created_at', 'updated_at', 'last_accessed_at'])

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (ch) => `\\${ch}`)

/**
 * One folder level below `prefix`, as storage.search returns it: files by their name relative
 * to the prefix, sub-folders as rows with id and dates null, matched case-insensitively.
 */
const listSql = (column: string, order: string) => `
  with matched as (
    select o.*, substr(o.name, length($2) + 1) as rest from storage.objects o
     where o.bucket_id = $1 and lower(o.name) like lower($3) || '%' escape '\\'
  ), entries as (
    select split_part(rest, '/', 1) as name, null::uuid as id, null::timestamptz as updated_at,
           null::timestamptz as created_at, null::timestamptz as last_accessed_at, null::jsonb as metadata
      from matched where position('/' in rest) > 0 group by 1
    union all
    select rest, id, updated_at, created_at, last_accessed_at, metadata
      from matched where position('/' in rest) = 0
  ), page as (
    select * from entries
     order by ${column === 'name' ? `lower(name) collate "C" ${order}` : `(id is not null), ${column} ${order}, name`}
     limit $4 offset $5
  )
  select coalesce(json_agg(json_build_object('name', name, 'id', id,
    'updated_at', ${iso('updated_at')}, 'created_at', ${iso('created_at')},
    'last_accessed_at', ${iso('last_accessed_at')}, 'metadata', metadata)), '[]')::text as json
  from page`

export function listRoutes(app: Hono, env: Env): void {
  app.post('/object/list/:bucket', async (c) => {
    const who = await requester(env.sc, c)
    const body = await jsonBody(c)
    // The checks of storage's request schema (routes/object/listObjects.ts).
    if (typeof body.prefix !== 'string')
      throw errors.invalidRequest("body must have required property 'prefix'")
    let prefix = body.prefix
    if (prefix && !prefix.endsWith('/')) prefix += '/'
    const search = typeof body.search === 'string' ? body.search : ''
    const sortBy = (body.sortBy ?? {}) as { column?: unknown; order?: unknown }
    const column = sortBy.column ?? 'name'
    if (typeof column !== 'string' || !sortColumns.has(column))
      throw errors.invalidParameter(
        'sortBy',
        'body/sortBy/column must be equal to one of the allowed values',
      )
    const order = sortBy.order ?? 'asc'
    if (order !== 'asc' && order !== 'desc')
      throw errors.invalidParameter(
        'sortBy',
        'body/sortBy/order must be equal to one of the allowed values',
      )
    const limit = Math.min(Number(body.limit ?? 100), 1500)
    const offset = Number(body.offset ?? 0)
    if (!Number.isInteger(limit) || limit < 1) throw errors.invalidParameter('limit')
    if (!Number.isInteger(offset) || offset < 0) throw errors.invalidParameter('offset')
    const json = await who.as('storage.object.list', async (tx) => {
      const { rows } = await tx.query<{ json: string }>(listSql(column, order), [
        c.req.param('bucket'),
        prefix,
        escapeLike(prefix) + escapeLike(search),
        limit,
        offset,
      ])
      return rows[0]!.json
    })
    return c.body(json, 200, { 'content-type': 'application/json' })
  })
}
