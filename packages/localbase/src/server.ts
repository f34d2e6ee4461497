import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { serve } from '@hono/node-server'
import { Hono } from 'hono'
import { type ConfigOptions, type LocalbaseConfig, loadConfig } from './config/config.ts'
import { DEFAULT_JWT_SECRET } from './config/keys.ts'
import type { ServiceContext, UpgradeHandler } from './context.ts'
import type { Database } from './db/database.ts'
import { applyMigrations, applySeed } from './db/migrate.ts'
import { openDatabase } from './db/open.ts'
import { mountBackup } from './backup/endpoint.ts'
import { CallerResolver } from './gateway/caller.ts'
import { closeIdleOnTimeOnly } from './gateway/keep-alive.ts'
import { bodyLimit } from './gateway/body-limit.ts'
import { clientAddresses } from './gateway/client-address.ts'
import { cors } from './gateway/cors.ts'
import { isLoopbackName } from './gateway/loopback.ts'
import { mountHealth } from './health.ts'
import { mountServices } from './services.ts'
import { serveStatic } from './static.ts'
import { startReaper } from './upkeep/reap-interrupted.ts'
import { startUpkeep, type Upkeep } from './upkeep/vacuum.ts'

export type Localbase = {
  url: string
  config: LocalbaseConfig
  db: Database
  server: Server
  /** Vacuum and analyze, on a schedule and after bulk work. */
  upkeep: Upkeep
  stop(): Promise<void>
}

/** Starts the whole stack: database, migrations, seed, the services, one port. */
export async function startLocalbase(options: ConfigOptions = {}): Promise<Localbase> {
  const config = loadConfig(options)
  if (!isLoopbackName(config.host) && config.keys.jwtSecret === DEFAULT_JWT_SECRET) {
    throw new Error(
      `refusing to listen on ${config.host} with the well-known default JWT secret: set JWT_SECRET (and the keys signed with it)`,
    )
  }

  let handler: ((req: Request, env: unknown) => Response | Promise<Response>) | null = null
  const upgrades: UpgradeHandler[] = []
  const server = serve({
    hostname: config.host,
    port: config.port,
    // The node bindings (env) carry the socket, which the gateway reads client addresses from.
    fetch: (req, env) =>
      handler
        ? handler(req, env)
        : Response.json({ status: 'starting' }, { status: 503, headers: { 'retry-after': '1' } }),
  }) as Server
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve)
    server.once('error', reject)
  })
  server.requestTimeout = 300_000
  server.headersTimeout = 60_000
  server.keepAliveTimeout = 65_000
  closeIdleOnTimeOnly(server)
  server.on('upgrade', (req, socket, head) => {
    if (!upgrades.some((handle) => handle(req, socket, head))) socket.destroy()
  })
  const port = (server.address() as AddressInfo).port
  const url = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}`

  let db: Database | null = null
  let stopReaper = () => {}
  try {
    db = await openDatabase(config.dataDir, config.dbUrl)
    await applyMigrations(db, config.supabaseDir)
    await applySeed(db, config.supabaseDir, config.seedPaths)
    // Before the first request, so no one sees a document a crash left half-imported.
    stopReaper = await startReaper(db, config.interruptedAfterSeconds)
  } catch (error) {
    await db?.close()
    await new Promise((resolve) => server.close(resolve))
    throw error
  }

  const ctx: ServiceContext = {
    config,
    db,
    callers: new CallerResolver(config.keys, config.auth.signingKeys),
    url,
  }
  const app = new Hono()
  app.use('*', cors())
  app.use('*', clientAddresses(config.trustedProxies))
  // Bulk chunk inserts and extracted texts are the largest JSON bodies the app sends.
  app.use('/rest/v1/*', bodyLimit(50 * 1024 * 1024))
  app.use('/auth/v1/*', bodyLimit(1024 * 1024))
  const services = await mountServices(app, ctx)
  upgrades.push(...services.upgrades)
  mountBackup(app, ctx)
  mountHealth(app, ctx, services)
  if (config.serveDir) serveStatic(app, config.serveDir)
  app.notFound((c) => c.json({ message: 'no Route matched with those values' }, 404))
  app.onError((error, c) => {
    console.error(`[localbase] ${c.req.method} ${c.req.path}:`, error)
    return c.json({ message: 'Internal Server Error' }, 500)
  })
  const upkeep = startUpkeep(db)
  handler = app.fetch

  let stopping: Promise<void> | null = null
  const stop = () =>
    (stopping ??= (async () => {
      stopReaper()
      await upkeep.stop()
      await services.close()
      server.closeAllConnections()
      await new Promise((resolve) => server.close(resolve))
      await db.close()
    })())
  return { url, config, db, server, upkeep, stop }
}
