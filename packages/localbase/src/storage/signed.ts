import { errors as joseErrors, jwtVerify, SignJWT } from 'jose'
import type { Context, Hono } from 'hono'
import { readUpload } from './body.ts'
import { serveObject } from './download.ts'
import { errors } from './errors.ts'
import { checkKey, type Env, jsonBody, requester } from './request.ts'
import { asOwner, findObject } from './sql.ts'
import { prepareUpload, storeUpload } from './write.ts'

type Token = { url?: unknown; scope?: unknown; owner?: unknown; upsert?: unknown }

const key = (c: Context) => checkKey(c.req.param('key') ?? '')

function expiresIn(value: unknown): number {
  const seconds = Number(value)
  if (!Number.isInteger(seconds) || seconds < 1)
    throw errors.invalidParameter('expiresIn', 'expiresIn must be a positive integer')
  return seconds
}

/** Signed URLs (wire surface §5.2): JWTs signed with the project secret, scoped to one key. */
export function signedRoutes(app: Hono, env: Env): void {
  const secret = new TextEncoder().encode(env.sc.config.keys.jwtSecret)
  const sign = (payload: Record<string, unknown>, seconds: number) =>
    new SignJWT(payload)
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setIssuedAt()
      .setExpirationTime(Math.floor(Date.now() / 1000) + seconds)
      .sign(secret)

  const verify = async (c: Context, scope: 'download' | 'upload'): Promise<Token> => {
    const token = c.req.query('token')
    if (!token) throw errors.missingParameter('token')
    let payload: Token
    try {
      payload = (await jwtVerify(token, secret, { algorithms: ['HS256'] })).payload as Token
    } catch (error) {
      throw errors.invalidJwt(
        error instanceof joseErrors.JWTExpired ? 'jwt expired' : 'invalid signature',
      )
    }
    const scoped =
      scope === 'upload'
        ? payload.scope === 'upload' || 'upsert' in payload
        : payload.scope !== 'upload'
    if (!scoped) throw errors.invalidSignature(`Token is not scoped for ${scope}`)
    if (payload.url !== `${c.req.param('bucket')}/${key(c)}`) throw errors.invalidSignature()
    return payload
  }

  app.post('/object/sign/:bucket/:key{.+}', async (c) => {
    const who = await requester(env.sc, c)
    const body = await jsonBody(c)
    const seconds = expiresIn(body.expiresIn)
    const bucket = c.req.param('bucket')
    const name = key(c)
    const row = await who.as('storage.object.sign', (tx) => findObject(tx, bucket, name))
    if (!row) throw errors.noSuchKey()
    const url = `${bucket}/${name}`
    const token = await sign({ url, scope: 'download' }, seconds)
    return c.json({ signedURL: `/object/sign/${url}?token=${token}` })
  })

  app.post('/object/sign/:bucket', async (c) => {
    const who = await requester(env.sc, c)
    const body = await jsonBody(c)
    const seconds = expiresIn(body.expiresIn)
    const paths = body.paths
    if (!Array.isArray(paths) || paths.some((p) => typeof p !== 'string'))
      throw errors.missingParameter('paths')
    const bucket = c.req.param('bucket')
    const found = await who.as('storage.object.sign_many', async (tx) => {
      const { rows } = await tx.query<{ name: string }>(
        `select name from storage.objects where bucket_id = $1 and name = any($2::text[])`,
        [bucket, paths],
      )
      return new Set(rows.map((r) => r.name))
    })
    const results = await Promise.all(
      (paths as string[]).map(async (path) => {
        if (!found.has(path))
          return {
            error: 'Either the object does not exist or you do not have access to it',
            path,
            signedURL: null,
          }
        const url = `${bucket}/${path}`
        const token = await sign({ url, scope: 'download' }, seconds)
        return { error: null, path, signedURL: `/object/sign/${url}?token=${token}` }
      }),
    )
    return c.json(results)
  })

  app.on(
    ['GET', 'HEAD'],
    ['/object/sign/:bucket/:key{.+}', '/render/image/sign/:bucket/:key{.+}'],
    async (c) => {
      await verify(c, 'download')
      const row = await asOwner(env.sc.db, (tx) => findObject(tx, c.req.param('bucket'), key(c)))
      if (!row) throw errors.noSuchKey()
      return serveObject(c, env, row)
    },
  )

  app.post('/object/upload/sign/:bucket/:key{.+}', async (c) => {
    const who = await requester(env.sc, c)
    const bucket = c.req.param('bucket')
    const name = key(c)
    const upsert = c.req.header('x-upsert') === 'true'
    // The caller's right to write is checked now, as storage's signUploadObjectUrl does.
    await prepareUpload(env, who, {
      bucket,
      name,
      upsert,
      operation: 'storage.object.sign_upload_url',
    })
    const url = `${bucket}/${name}`
    const token = await sign(
      { owner: who.ownerId ?? undefined, url, upsert, scope: 'upload' },
      7200,
    )
    return c.json({ url: `/object/upload/sign/${url}?token=${token}`, token })
  })

  app.put('/object/upload/sign/:bucket/:key{.+}', async (c) => {
    const token = await verify(c, 'upload')
    const owner = typeof token.owner === 'string' ? token.owner : null
    const target = { bucket: c.req.param('bucket'), name: key(c), upsert: token.upsert === true }
    const uuid = owner && /^[0-9a-f-]{36}$/i.test(owner) ? owner : null
    const { key: path } = await storeUpload(env, { owner: uuid, ownerId: owner }, target, (rules) =>
      readUpload(c, env.store, rules),
    )
    return c.json({ Key: path })
  })
}
