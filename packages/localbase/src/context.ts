import type { IncomingMessage } from 'node:http'
import type { Duplex } from 'node:stream'
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
