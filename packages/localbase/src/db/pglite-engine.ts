import { mkdirSync } from 'node:fs'
import { PGlite } from '@electric-sql/pglite'
import type { Engine, Session, Statement } from './database.ts'
import { extensions } from './extensions.ts'
import { pipelinedRead } from './pipeline.ts'

/**
 * PGlite's start-up settings. Postgres' default 128 MB of shared buffers holds less than
 * search's working set at 100,000 chunks (rows, GIN index, content for snippets), and a
 * miss is a read through the WASM file system. Memory is only taken as pages are read.
 */
export const startParams = [...PGlite.defaultStartParams, '-c', 'shared_buffers=512MB']

/**
 * Postgres in-process. PGlite is a single connection, so every call is serialised by PGlite
 * itself; keep transactions short.
 */
export class PGliteEngine implements Engine {
  readonly kind = 'pglite'
  readonly pglite: PGlite
  constructor(pg: PGlite) {
    this.pglite = pg
  }

  static async open(dataDir: string | null): Promise<PGliteEngine> {
    if (dataDir) mkdirSync(dataDir, { recursive: true })
    const pg = await PGlite.create({ ...(dataDir ? { dataDir } : {}), extensions, startParams })
    return new PGliteEngine(pg)
  }

  get session(): Session {
    return this.pglite
  }

  read(prelude: Statement[], sql: string, values: unknown[]) {
    return pipelinedRead(
      this.pglite,
      [...prelude, { sql: 'set transaction read only', values: [] }],
      sql,
      values,
    )
  }

  async close(): Promise<void> {
    if (!this.pglite.closed) await this.pglite.close()
  }
}
