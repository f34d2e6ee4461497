import { randomUUID } from 'node:crypto'
import type { Context, Hono } from 'hono'
import { readUpload } from './body.ts'
import { serveObject } from './download.ts'
import { errors } from './errors.ts'
import { checkKey, type Env, jsonBody, requester } from './request.ts'
import { findObject, findPublicObject, iso, type ObjectRow, writeObject } from './sql.ts'
import { storeUpload } from './write.ts'

const key = (c: Context) => checkKey(c.req.param('key') ?? '')

const deletedJson = `json_build_object('name', name, 'id', id, 'bucket_id', bucket_id, 'owner', owner,
  'owner_id', owner_id, 'version', version, 'metadata', metadata, 'user_metadata', user_metadata,
  'created_at', ${iso('created_at')}, 'updated_at', ${iso('updated_at')},
  'last_accessed_at', ${iso('last_accessed_at')})`

/** Object endpoints (wire surface §5.2) other than listing and signed URLs. */
export function objectRoutes(app: Hono, env: Env): void {
  app.post('/object/move', async (c) => {
    const who = await requester(env.sc, c)
    const { bucket, source, destBucket, destination } = moveBody(await jsonBody(c))
    const moved = await who.as('storage.object.move', async (tx) => {
      const { rows } = await tx
        .query<{ id: string; name: string }>(
          `update storage.objects set bucket_id = $3, name = $4, owner = $5, owner_id = $6,
             updated_at = now() where bucket_id = $1 and name = $2 returning id, name`,
          [bucket, source, destBucket, destination, who.owner, who.ownerId],
        )
        .catch((error: { code?: string }) => {
          throw error.code === '23503' ? errors.noSuchBucket() : error
        })
      return rows[0]
    })
    if (!moved) throw errors.noSuchKey()
    return c.json({ message: 'Successfully moved', Id: moved.id, Key: moved.name })
  })

  app.post('/object/copy', async (c) => {
    const who = await requester(env.sc, c)
    const { bucket, source, destBucket, destination } = moveBody(await jsonBody(c))
    const row = await who.as('storage.object.copy', (tx) => findObject(tx, bucket, source))
    if (!row?.version) throw errors.noSuchKey()
    const version = randomUUID()
    await env.store.duplicate(row.version, version).catch(() => {
      throw errors.noSuchKey()
    })
    try {
      const written = await who.as('storage.object.copy', (tx) =>
        writeObject(tx, {
          bucket: destBucket,
          name: destination,
          owner: who.owner,
          ownerId: who.ownerId,
          version,
          metadata: row.metadata && { ...row.metadata, lastModified: new Date().toISOString() },
          userMetadata: row.user_metadata ?? undefined,
          upsert: c.req.header('x-upsert') === 'true',
        }).catch((error: { code?: string }) => {
          throw error.code === '23503' ? errors.noSuchBucket() : error
        }),
      )
      await env.store.remove(written.old_version)
      return c.json({ Id: written.id, Key: `${destBucket}/${destination}` })
    } catch (error) {
      await env.store.remove(version)
      throw error
    }
  })

  const publicDownload = async (c: Context) => {
    const row = await findPublicObject(env.sc.db, c.req.param('bucket') ?? '', key(c))
    if (!row) throw errors.noSuchKey()
    return serveObject(c, env, row)
  }
  // Image transformations are not emulated: /render/image/* serves the original bytes.
  app.get('/render/image/public/:bucket/:key{.+}', publicDownload)
  app.get('/object/public/:bucket/:key{.+}', publicDownload)

  // Public buckets' info needs no credentials, like their downloads.
  app.get('/object/info/public/:bucket/:key{.+}', async (c) => {
    const row = await findPublicObject(env.sc.db, c.req.param('bucket'), key(c))
    if (!row) throw errors.noSuchKey()
    return c.json(info(row))
  })
  const infoPaths = ['/object/info/authenticated/:bucket/:key{.+}', '/object/info/:bucket/:key{.+}']
  for (const path of infoPaths) {
    app.get(path, async (c) => {
      const who = await requester(env.sc, c)
      const row = await who.as('storage.object.info_authenticated', (tx) =>
        findObject(tx, c.req.param('bucket') ?? '', key(c)),
      )
      if (!row) throw errors.noSuchKey()
      return c.json(info(row))
    })
  }

  const download = async (c: Context) => {
    const who = await requester(env.sc, c)
    const row = await who.as('storage.object.get_authenticated', (tx) =>
      findObject(tx, c.req.param('bucket') ?? '', key(c)),
    )
    if (!row) throw errors.noSuchKey()
    return serveObject(c, env, row)
  }
  app.on(['GET', 'HEAD'], '/render/image/authenticated/:bucket/:key{.+}', download)
  app.on(['GET', 'HEAD'], '/object/authenticated/:bucket/:key{.+}', download)
  app.on(['GET', 'HEAD'], '/object/:bucket/:key{.+}', download)

  // PUT is storage's update: always an upsert, under its own operation name.
  const upload = (update: boolean) => async (c: Context) => {
    const who = await requester(env.sc, c)
    const target = {
      bucket: c.req.param('bucket') ?? '',
      name: key(c),
      upsert: update || c.req.header('x-upsert') === 'true',
      operation: update ? 'storage.object.upload_update' : 'storage.object.upload',
    }
    const { id, key: path } = await storeUpload(env, who, target, (rules) =>
      readUpload(c, env.store, rules),
    )
    return c.json({ Id: id, Key: path })
  }
  app.post('/object/:bucket/:key{.+}', upload(false))
  app.put('/object/:bucket/:key{.+}', upload(true))

  app.delete('/object/:bucket/:key{.+}', async (c) => {
    const who = await requester(env.sc, c)
    const deleted = await who.as('storage.object.delete', async (tx) => {
      const { rows } = await tx.query<{ version: string | null }>(
        `delete from storage.objects where bucket_id = $1 and name = $2 returning version`,
        [c.req.param('bucket'), key(c)],
      )
      return rows[0]
    })
    if (!deleted) throw errors.noSuchKey()
    await env.store.remove(deleted.version)
    return c.json({ message: 'Successfully deleted' })
  })

  app.delete('/object/:bucket', async (c) => {
    const who = await requester(env.sc, c)
    const prefixes = (await jsonBody(c)).prefixes
    if (!Array.isArray(prefixes) || prefixes.some((p) => typeof p !== 'string'))
      throw errors.missingParameter('prefixes')
    if (prefixes.length < 1 || prefixes.length > 1000)
      throw errors.invalidParameter('prefixes', 'prefixes must hold 1 to 1000 keys')
    const deleted = await who.as('storage.object.delete_many', async (tx) => {
      const { rows } = await tx.query<{ json: string; version: string | null }>(
        `delete from storage.objects where bucket_id = $1 and name = any($2::text[])
         returning ${deletedJson}::text as json, version`,
        [c.req.param('bucket'), prefixes],
      )
      return rows
    })
    await env.store.remove(...deleted.map((r) => r.version))
    return c.body(`[${deleted.map((r) => r.json).join(',')}]`, 200, {
      'content-type': 'application/json',
    })
  })
}

/** storage's info body (src/storage/renderer/info.ts); storage-js camel-cases it. */
function info(row: ObjectRow) {
  return {
    id: row.id,
    name: row.name,
    version: row.version,
    bucket_id: row.bucket_id,
    size: row.metadata?.size ?? null,
    content_type: row.metadata?.mimetype ?? null,
    cache_control: row.metadata?.cacheControl ?? null,
    etag: row.metadata?.eTag ?? null,
    metadata: row.user_metadata ?? {},
    last_modified: row.updated_at,
    created_at: row.created_at,
  }
}

function moveBody(body: Record<string, unknown>) {
  for (const name of ['bucketId', 'sourceKey', 'destinationKey']) {
    if (typeof body[name] !== 'string' || !body[name]) throw errors.missingParameter(name)
  }
  if (body.destinationBucket !== undefined && typeof body.destinationBucket !== 'string')
    throw errors.invalidParameter('destinationBucket')
  return {
    bucket: body.bucketId as string,
    source: checkKey(body.sourceKey as string),
    destBucket: (body.destinationBucket as string | undefined) || (body.bucketId as string),
    destination: checkKey(body.destinationKey as string),
  }
}
