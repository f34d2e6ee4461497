import type { IncomingMessage } from 'node:http'
import type { Duplex } from 'node:stream'
import type { Hono } from 'hono'
import type { LocalbaseConfig } from './config/config.ts'
import type { Database } from './db/database.ts'
import type { CallerResolver } from './gateway/caller.ts'

/** What every service is given: the configuration, the database door, and the gateway. */
export type ServiceContext = {
  config: LocalbaseConfig
  db: Database
  callers: CallerResolver
  /** The public URL of this localbase, e.g. http://127.0.0.1:54321. */
  url: string
}

/** A service may take over WebSocket upgrades for paths it owns. */
export type UpgradeHandler = (req: IncomingMessage, socket: Duplex, head: Buffer) => boolean

/** One Supabase service, mounted under its prefix on the shared app. */
export type Service = {
  name: 'rest' | 'auth' | 'storage' | 'realtime' | 'functions'
  /** e.g. `/rest/v1`; the service's Hono app sees paths relative to it. */
  prefix: string
  app: Hono
  upgrade?: UpgradeHandler
  close?(): Promise<void>
  /** What works less than it should right now, for /health (e.g. a function that fails to boot). */
  degraded?(): string[]
}
