import { PassThrough, Readable } from 'node:stream'
import type { Hono } from 'hono'
import type { ServiceContext } from '../context.ts'
import { writeBackup } from './write-backup.ts'

/**
 * `POST /admin/v1/backup`: the archive `localbase backup` saves, streamed as it is written.
 * Only the service-role or secret key may ask: a backup holds every workspace's data.
 */
export function mountBackup(app: Hono, ctx: ServiceContext): void {
  app.post('/admin/v1/backup', (c) => {
    const bearer = c.req.header('authorization')?.replace(/^Bearer\s+/i, '')
    const keys = [c.req.header('apikey'), bearer].filter((k): k is string => !!k)
    if (keys.length === 0 || keys.some((k) => ctx.callers.apiKeyRole(k) !== 'service_role'))
      return c.json({ message: 'A backup needs the service-role or secret key' }, 401)
    if (!ctx.db.engine.pglite)
      return c.json(
        { message: 'This localbase keeps its data in Postgres: back it up with pg_dump' },
        501,
      )
    const body = new PassThrough()
    writeBackup(ctx.db, body).catch((error: unknown) => {
      console.error('[localbase] backup failed:', error)
      // Cut the response short, so the client sees a failed download, not a short archive.
      body.destroy(error as Error)
    })
    const stamp = new Date().toISOString().replaceAll(':', '-').slice(0, 19)
    return new Response(Readable.toWeb(body) as ReadableStream, {
      headers: {
        'content-type': 'application/x-tar',
        'content-disposition': `attachment; filename="localbase-${stamp}.tar"`,
        'cache-control': 'no-store',
      },
    })
  })
}
