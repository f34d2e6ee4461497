import { statfs } from 'node:fs/promises'
import type { Context, Hono } from 'hono'
import type { ServiceContext } from './context.ts'
import { withJobKey } from './db/work-queue.ts'

/** A database that has not answered `select 1` in this long is as good as down. */
const DATABASE_TIMEOUT_MS = 5000
/** Below this much free space in the data dir's file system, writes may soon fail. */
const DEFAULT_MIN_FREE_DISK_MB = 1024

type Check = { ok: boolean; [detail: string]: unknown }

async function databaseCheck(ctx: ServiceContext): Promise<Check> {
  const started = performance.now()
  let timer: NodeJS.Timeout | undefined
  try {
    await Promise.race([
      withJobKey('health', () => ctx.db.pg.query('select 1')),
      new Promise((_, reject) => {
        timer = setTimeout(
          () => reject(new Error(`no answer within ${DATABASE_TIMEOUT_MS} ms`)),
          DATABASE_TIMEOUT_MS,
        )
      }),
    ])
    return { ok: true, ms: Math.round(performance.now() - started) }
  } catch (error) {
    return { ok: false, error: (error as Error).message }
  } finally {
    clearTimeout(timer)
  }
}

async function diskCheck(ctx: ServiceContext): Promise<Check> {
  const minFreeMb =
    Number(ctx.config.env.HEALTH_MIN_FREE_DISK_MB ?? NaN) >= 0
      ? Number(ctx.config.env.HEALTH_MIN_FREE_DISK_MB)
      : DEFAULT_MIN_FREE_DISK_MB
  try {
    const fs = await statfs(ctx.config.dataDir)
    const free = fs.bavail * fs.bsize
    return {
      ok: free >= minFreeMb * 1024 * 1024,
      free_bytes: free,
      total_bytes: fs.blocks * fs.bsize,
      min_free_bytes: minFreeMb * 1024 * 1024,
    }
  } catch (error) {
    return { ok: false, error: (error as Error).message }
  }
}

/**
 * Health for a process manager, a load balancer and a person:
 *
 * - `GET /health/live`: 200 while the process answers HTTP at all; restart it when this
 *   fails. It never touches the database, so a long statement does not get it killed.
 * - `GET /health/ready`: 200 when the database answers, else 503 (as PostgREST's `/ready`);
 *   send traffic only while it is 200.
 * - `GET /health`: the report, `status` 'ok', 'degraded' (serving, but something needs a
 *   person: a function that fails to boot, a nearly full disk) or 'unavailable' (the
 *   database does not answer). 503 when unavailable; degraded is 200 so nothing restarts a
 *   server that a restart would not mend, or 503 with `?strict=true`, for monitors.
 *
 * Supabase's own per-service checks (`/auth/v1/health`) stay as they are.
 */
export function mountHealth(
  app: Hono,
  ctx: ServiceContext,
  services: { names: string[]; degraded(): string[] },
): void {
  const noStore = (c: Context) => c.header('cache-control', 'no-store')
  app.get('/health/live', (c) => {
    noStore(c)
    return c.json({ status: 'ok' })
  })
  app.get('/health/ready', async (c) => {
    noStore(c)
    const database = await databaseCheck(ctx)
    return c.json({ status: database.ok ? 'ok' : 'unavailable', database }, database.ok ? 200 : 503)
  })
  app.get('/health', async (c) => {
    noStore(c)
    const [database, disk] = await Promise.all([databaseCheck(ctx), diskCheck(ctx)])
    const degraded = [
      ...(disk.ok
        ? []
        : [
            disk.error
              ? `disk: ${disk.error}`
              : `disk nearly full: ${Math.round(Number(disk.free_bytes) / 1024 / 1024)} MB free in ${ctx.config.dataDir}`,
          ]),
      ...services.degraded(),
    ]
    const status = !database.ok ? 'unavailable' : degraded.length ? 'degraded' : 'ok'
    const strict = c.req.query('strict') === 'true'
    const code = status === 'unavailable' || (strict && status === 'degraded') ? 503 : 200
    return c.json({ status, services: services.names, checks: { database, disk }, degraded }, code)
  })
}
