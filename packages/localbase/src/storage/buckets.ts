import type { Hono } from 'hono'
import { parseSize } from '../config/config.ts'
import type { Transaction } from '../db/database.ts'
import { errors, StorageError } from './errors.ts'
import { checkBucketName, type Env, jsonBody, requester } from './request.ts'
import { iso } from './sql.ts'

// getBucket leaves out `type`, listBuckets includes it (storage's routes select so).
const bucketFields = `'id', b.id, 'name', b.name, 'owner', coalesce(b.owner::text, b.owner_id),
  'public', b.public, 'file_size_limit', b.file_size_limit,
  'allowed_mime_types', b.allowed_mime_types, 'created_at', ${iso('b.created_at')},
  'updated_at', ${iso('b.updated_at')}`
const bucketJson = `json_build_object(${bucketFields})`
const listedBucketJson = `json_build_object(${bucketFields}, 'type', b.type)`

const sortColumns = new Set(['id', 'name', 'created_at', 'updated_at'])

function sizeLimit(value: unknown): number | null {
  if (value === undefined || value === null) return null
  try {
    const size = parseSize(value)
    if (size !== null && (!Number.isSafeInteger(size) || size < 0)) throw new Error()
    return size
  } catch {
    throw new StorageError(
      400,
      'InvalidRequest',
      'Invalid file size format, hint: use 20GB / 20MB / 30KB / 3B',
    )
  }
}

function mimeTypes(value: unknown): string[] | null {
  if (value === undefined || value === null) return null
  if (!Array.isArray(value) || value.some((m) => typeof m !== 'string'))
    throw errors.invalidParameter('allowed_mime_types')
  return value.filter(Boolean)
}

/** Bucket endpoints (wire surface §5.1), each one statement under the caller's RLS. */
export function bucketRoutes(app: Hono, env: Env): void {
  app.get('/bucket', async (c) => {
    const who = await requester(env.sc, c)
    const column = c.req.query('sortColumn') ?? 'name'
    if (!sortColumns.has(column)) throw errors.invalidParameter('sortColumn')
    const order = c.req.query('sortOrder')?.toLowerCase() === 'desc' ? 'desc' : 'asc'
    const limit = c.req.query('limit') ? Number(c.req.query('limit')) : null
    const offset = Number(c.req.query('offset') ?? 0)
    if ((limit !== null && !(limit >= 0)) || !(offset >= 0)) throw errors.invalidParameter('limit')
    const json = await who.as('storage.bucket.list', async (tx) => {
      const { rows } = await tx.query<{ json: string }>(
        `select coalesce(json_agg(${listedBucketJson} order by b."${column}" ${order}), '[]')::text as json
           from (select * from storage.buckets
                  where $1::text is null or name ilike '%' || $1 || '%'
                  order by "${column}" ${order} limit $2 offset $3) b`,
        [c.req.query('search') || null, limit, offset],
      )
      return rows[0]!.json
    })
    return c.body(json, 200, { 'content-type': 'application/json' })
  })

  app.get('/bucket/:id', async (c) => {
    const who = await requester(env.sc, c)
    const json = await who.as('storage.bucket.get', (tx) => one(tx, c.req.param('id')))
    if (!json) throw errors.noSuchBucket()
    return c.body(json, 200, { 'content-type': 'application/json' })
  })

  app.post('/bucket', async (c) => {
    const who = await requester(env.sc, c)
    const body = await jsonBody(c)
    const name = checkBucketName(body.name ?? body.id)
    const id = checkBucketName(body.id ?? name)
    const limit = sizeLimit(body.file_size_limit)
    if (limit !== null && limit > env.sc.config.storage.fileSizeLimit) {
      throw new StorageError(
        413,
        'EntityTooLarge',
        'The bucket exceeded the maximum allowed size',
        'Payload too large',
      )
    }
    await who
      .as('storage.bucket.create', async (tx) => {
        const { rows } = await tx.query(`select 1 from storage.buckets where id = $1`, [id])
        if (rows.length) throw errors.bucketExists()
        await tx.query(
          `insert into storage.buckets (id, name, owner, owner_id, public, file_size_limit, allowed_mime_types, type)
         values ($1, $2, $3, $4, $5, $6, $7, coalesce($8, 'STANDARD'))`,
          [
            id,
            name,
            who.owner,
            who.ownerId,
            body.public === true,
            limit,
            mimeTypes(body.allowed_mime_types),
            typeof body.type === 'string' ? body.type : null,
          ],
        )
      })
      .catch((error) => {
        if (error instanceof StorageError && error.code === 'ResourceAlreadyExists')
          throw errors.bucketExists()
        throw error
      })
    return c.json({ name })
  })

  app.put('/bucket/:id', async (c) => {
    const who = await requester(env.sc, c)
    const body = await jsonBody(c)
    const limit = sizeLimit(body.file_size_limit)
    const updated = await who.as('storage.bucket.update', async (tx) => {
      const { rows } = await tx.query(
        `update storage.buckets set public = coalesce($2, public),
           file_size_limit = case when $5 then $3 else file_size_limit end,
           allowed_mime_types = case when $6 then $4 else allowed_mime_types end, updated_at = now()
         where id = $1 returning id`,
        [
          c.req.param('id'),
          typeof body.public === 'boolean' ? body.public : null,
          limit,
          mimeTypes(body.allowed_mime_types),
          'file_size_limit' in body,
          'allowed_mime_types' in body,
        ],
      )
      return rows.length > 0
    })
    if (!updated) throw errors.noSuchBucket()
    return c.json({ message: 'Successfully updated' })
  })

  app.post('/bucket/:id/empty', async (c) => {
    const who = await requester(env.sc, c)
    const versions = await who.as('storage.bucket.empty', async (tx) => {
      if (!(await one(tx, c.req.param('id')))) throw errors.noSuchBucket()
      const { rows } = await tx.query<{ version: string | null }>(
        `delete from storage.objects where bucket_id = $1 returning version`,
        [c.req.param('id')],
      )
      return rows.map((r) => r.version)
    })
    await env.store.remove(...versions)
    // Hosted storage empties in the background and says so; here it is already done.
    return c.json({
      message: 'Empty bucket has been queued. Completion may take up to an hour.',
    })
  })

  app.delete('/bucket/:id', async (c) => {
    const who = await requester(env.sc, c)
    await who.as('storage.bucket.delete', async (tx) => {
      const { rows } = await tx.query<{ found: boolean; used: boolean }>(
        `select exists (select 1 from storage.buckets where id = $1) as found,
                exists (select 1 from storage.objects where bucket_id = $1) as used`,
        [c.req.param('id')],
      )
      if (!rows[0]!.found) throw errors.noSuchBucket()
      if (rows[0]!.used) throw errors.bucketNotEmpty()
      // Objects the caller cannot see still hold the bucket through the foreign key.
      const deleted = await tx
        .query(`delete from storage.buckets where id = $1 returning id`, [c.req.param('id')])
        .catch((error: { code?: string }) => {
          throw error.code === '23503' ? errors.bucketNotEmpty() : error
        })
      if (deleted.rows.length === 0) throw errors.noSuchBucket()
    })
    return c.json({ message: 'Successfully deleted' })
  })
}

async function one(tx: Transaction, id: string): Promise<string | null> {
  const { rows } = await tx.query<{ json: string }>(
    `select ${bucketJson}::text as json from storage.buckets b where b.id = $1`,
    [id],
  )
  return rows[0]?.json ?? null
}
