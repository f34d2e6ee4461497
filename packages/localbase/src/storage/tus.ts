import { createHash, randomUUID } from 'node:crypto'
import { createReadStream } from 'node:fs'
import { open, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { Context, Hono } from 'hono'
import { checkMimeType } from './body.ts'
import { errors, StorageError } from './errors.ts'
import { checkKey, type Env, requester } from './request.ts'
import { commitUpload, prepareUpload } from './write.ts'

// TUS 1.0.0 at /upload/resumable (wire surface §5.4). State lives beside the bytes in
// storage/tus/<id>.json and <id>.part, so an upload resumes after a cut connection or a restart.
// As on hosted Storage (its tus server's expiration extension), an unfinished upload expires
// `config.storage.tusUrlExpiryMs` after its creation: requests to it then answer 410, and a
// sweep on a timer deletes its files.
type State = {
  bucket: string
  name: string
  upsert: boolean
  length: number
  contentType: string
  cacheControl: string
  userMetadata: unknown
  ownerId: string | null
  /** ms since the epoch; absent from uploads made before it was kept (their bytes' mtime then). */
  createdAt?: number
}

/** Sweeps for expired uploads at least this often (more often when they expire sooner). */
const SWEEP_EVERY_MS = 10 * 60_000

const tusHeaders = { 'tus-resumable': '1.0.0', 'cache-control': 'no-store' }
const tusError = (status: number, message: string) => errors.tus(message, status)

// Storage's TUS server answers errors with their real status and the message as plain text.
const tusRoute =
  (handler: (c: Context) => Promise<Response>) =>
  async (c: Context): Promise<Response> => {
    try {
      return await handler(c)
    } catch (error) {
      if (!(error instanceof StorageError)) throw error
      return c.text(error.message, Number(error.status) as 400, tusHeaders)
    }
  }

function parseMetadata(header: string): Record<string, string> {
  const out: Record<string, string> = {}
  for (const pair of header.split(',')) {
    const [k, v] = pair.trim().split(' ')
    if (k) out[k] = v ? Buffer.from(v, 'base64').toString('utf8') : ''
  }
  return out
}

/** Serves TUS; returns the sweep's stop function (the sweep runs once now, then on a timer). */
export async function tusRoutes(app: Hono, env: Env): Promise<() => void> {
  const dir = env.store.tusDir
  const paths = (id: string) => ({ json: join(dir, `${id}.json`), part: join(dir, `${id}.part`) })
  const busy = new Set<string>()
  const expiryMs = env.sc.config.storage.tusUrlExpiryMs
  const sweepEveryMs = Math.min(expiryMs, SWEEP_EVERY_MS)

  /** When this upload stops being resumable (ms since the epoch). */
  const expiresAt = async (id: string, state: State) =>
    (state.createdAt ?? (await stat(paths(id).part)).mtimeMs) + expiryMs
  const remove = (id: string) =>
    Promise.all(Object.values(paths(id)).map((p) => rm(p, { force: true })))
  const expiresHeader = (at: number) => ({ 'upload-expires': new Date(at).toUTCString() })

  const load = async (
    c: Context,
  ): Promise<{ id: string; state: State; offset: number; expires: number }> => {
    const id = c.req.param('id') ?? ''
    if (!/^[0-9a-f-]{36}$/.test(id)) throw tusError(404, 'Upload not found')
    const p = paths(id)
    const state = await readFile(p.json, 'utf8').then(JSON.parse, () => null)
    const size = await stat(p.part).then(
      (s) => s.size,
      () => null,
    )
    if (!state || size === null) throw tusError(404, 'Upload not found')
    const expires = await expiresAt(id, state)
    if (Date.now() > expires && !busy.has(id))
      throw tusError(410, 'The file for this url no longer exists')
    return { id, state, offset: size, expires }
  }

  /**
   * Deletes the unfinished uploads that expired over a sweep ago: until then a request to one
   * answers 410 (it expired), as hosted Storage's does until its clean-up, and after, 404.
   */
  const sweep = async () => {
    for (const name of await readdir(dir)) {
      const [id, ext] = name.split('.')
      if (ext !== 'json' || !id || busy.has(id)) continue
      const state = await readFile(join(dir, name), 'utf8').then(JSON.parse, () => null)
      if (!state) continue
      const expires = await expiresAt(id, state).catch(() => Infinity)
      if (Date.now() > expires + sweepEveryMs) await remove(id)
    }
  }
  const sweepSoon = () =>
    void sweep().catch((error: unknown) =>
      console.error('[localbase storage] sweeping expired uploads failed:', error),
    )

  app.post(
    '/upload/resumable',
    tusRoute(async (c) => {
      const who = await requester(env.sc, c)
      const length = Number(c.req.header('upload-length'))
      if (!Number.isSafeInteger(length) || length < 0)
        throw tusError(400, 'Upload-Length is invalid')
      const meta = parseMetadata(c.req.header('upload-metadata') ?? '')
      if (!meta.bucketName) throw tusError(400, 'Metadata bucketName is required')
      const name = checkKey(meta.objectName ?? '')
      const upsert = c.req.header('x-upsert') === 'true'
      const prepared = await prepareUpload(env, who, { bucket: meta.bucketName, name, upsert })
      if (length > prepared.rules.limit) throw tusError(413, 'Maximum size exceeded')
      const contentType = meta.contentType || 'application/octet-stream'
      checkMimeType(contentType, prepared.rules.allowedMimeTypes)
      let userMetadata: unknown
      try {
        userMetadata = meta.metadata ? JSON.parse(meta.metadata) : undefined
      } catch {
        userMetadata = undefined
      }
      const state: State = {
        bucket: meta.bucketName,
        name,
        upsert,
        length,
        contentType,
        cacheControl: meta.cacheControl ? `max-age=${meta.cacheControl}` : 'no-cache',
        userMetadata,
        ownerId: who.ownerId,
        createdAt: Date.now(),
      }
      const id = randomUUID()
      const p = paths(id)
      // The state appears whole or not at all (temp files are cleared at start-up).
      const staged = join(env.store.tmpDir, `${id}.json`)
      await writeFile(p.part, '')
      await writeFile(staged, JSON.stringify(state))
      await rename(staged, p.json)
      const location = `${new URL(c.req.url).origin}/storage/v1/upload/resumable/${id}`
      if (length === 0) await finish(c, id, state)
      return c.body(null, 201, {
        ...tusHeaders,
        location,
        'upload-offset': '0',
        ...(length === 0 ? {} : expiresHeader(state.createdAt! + expiryMs)),
      })
    }),
  )

  // Hono routes HEAD through GET handlers; TUS has no GET.
  app.get(
    '/upload/resumable/:id',
    tusRoute(async (c) => {
      if (c.req.method !== 'HEAD') throw tusError(405, 'Method not allowed')
      await requester(env.sc, c)
      const { state, offset } = await load(c)
      return c.body(null, 200, {
        ...tusHeaders,
        'upload-offset': String(offset),
        'upload-length': String(state.length),
      })
    }),
  )

  app.patch(
    '/upload/resumable/:id',
    tusRoute(async (c) => {
      const who = await requester(env.sc, c)
      const { id, state, offset, expires } = await load(c)
      if (who.ownerId !== state.ownerId) throw errors.accessDenied('Access denied')
      if (c.req.header('content-type') !== 'application/offset+octet-stream')
        throw tusError(415, 'Content-Type must be application/offset+octet-stream')
      if (Number(c.req.header('upload-offset')) !== offset)
        throw tusError(409, 'Upload-Offset conflict')
      if (busy.has(id)) throw tusError(423, 'Upload is locked')
      busy.add(id)
      let size = offset
      try {
        const file = await open(paths(id).part, 'a')
        try {
          for await (const chunk of c.req.raw.body ?? []) {
            if (size + chunk.byteLength > state.length) throw tusError(413, 'Maximum size exceeded')
            await file.write(chunk)
            size += chunk.byteLength
          }
        } catch (error) {
          // A cut connection ends this PATCH; the client resumes from the offset HEAD reports.
          if (error instanceof StorageError) throw error
        } finally {
          // Whatever arrived before a cut is kept and reported by HEAD, so the client resumes.
          await file.sync().catch(() => {})
          await file.close()
        }
        if (size === state.length) await finish(c, id, state)
      } finally {
        busy.delete(id)
      }
      return c.body(null, 204, {
        ...tusHeaders,
        'upload-offset': String(size),
        ...(size === state.length ? {} : expiresHeader(expires)),
      })
    }),
  )

  app.delete(
    '/upload/resumable/:id',
    tusRoute(async (c) => {
      const who = await requester(env.sc, c)
      const { id, state } = await load(c)
      if (who.ownerId !== state.ownerId) throw errors.accessDenied('Access denied')
      await remove(id)
      return c.body(null, 204, tusHeaders)
    }),
  )

  // The complete file becomes the object exactly as a plain upload would, under the caller's RLS.
  async function finish(c: Context, id: string, state: State): Promise<void> {
    const who = await requester(env.sc, c)
    const p = paths(id)
    const prepared = await prepareUpload(env, who, {
      bucket: state.bucket,
      name: state.name,
      upsert: state.upsert,
    })
    const hash = createHash('md5')
    for await (const chunk of createReadStream(p.part)) hash.update(chunk)
    try {
      await commitUpload(env, prepared, {
        received: { tmp: p.part, size: state.length, etag: `"${hash.digest('hex')}"` },
        mimetype: state.contentType,
        cacheControl: state.cacheControl,
        userMetadata: state.userMetadata,
      })
    } catch (error) {
      if (error instanceof StorageError) await rm(p.json, { force: true })
      throw error
    }
    await rm(p.json, { force: true })
  }

  await sweep()
  const timer = setInterval(sweepSoon, sweepEveryMs)
  timer.unref()
  return () => clearInterval(timer)
}
