import { mkdirSync } from 'node:fs'
import { PGlite, type Transaction } from '@electric-sql/pglite'
import { extensions } from './extensions.ts'
import { pipelinedRead } from './pipeline.ts'

export type { Transaction }

/** Who is asking, as PostgREST would put it into the transaction (docs §2.7). */
export type RequestContext = {
  role: string
  claims: Record<string, unknown>
  headers?: Record<string, string>
  method?: string
  path?: string
  /** Schemas searched first, then the configured extra search path. */
  searchPath?: string[]
  /** Extra `set_config` settings, e.g. `storage.operation` or `realtime.topic`. */
  settings?: Record<string, string>
}

/**
 * PGlite's start-up settings. Postgres' default 128 MB of shared buffers holds less than
 * search's working set at 100,000 chunks (rows, GIN index, content for snippets), and a
 * miss is a read through the WASM file system. Memory is only taken as pages are read.
 */
export const startParams = [...PGlite.defaultStartParams, '-c', 'shared_buffers=512MB']

/**
 * The only door to Postgres. PGlite is a single connection, so every call here is
 * serialised by PGlite itself; keep transactions short.
 */
export class Database {
  readonly pg: PGlite
  private constructor(pg: PGlite) {
    this.pg = pg
  }

  static async open(dataDir: string | null): Promise<Database> {
    if (dataDir) mkdirSync(dataDir, { recursive: true })
    const pg = await PGlite.create({
      ...(dataDir ? { dataDir } : {}),
      extensions,
      startParams,
    })
    return new Database(pg)
  }

  static wrap(pg: PGlite): Database {
    return new Database(pg)
  }

  /** One transaction with the caller's role and claims; RLS applies. */
  async asUser<T>(ctx: RequestContext, fn: (tx: Transaction) => Promise<T>): Promise<T> {
    return this.pg.transaction(async (tx) => {
      await tx.query(contextSql, contextParams(ctx))
      return fn(tx)
    })
  }

  /**
   * One read-only statement as the caller, in a single round trip (see pipeline.ts). The
   * implicit transaction commits, so use it only where nothing may need rolling back.
   */
  async readAsUser(
    ctx: RequestContext,
    sql: string,
    values: unknown[],
  ): Promise<Record<string, unknown>[]> {
    return pipelinedRead(
      this.pg,
      [
        { sql: contextSql, values: contextParams(ctx) },
        { sql: 'set transaction read only', values: [] },
      ],
      sql,
      values,
    )
  }

  /** One transaction as the database owner, for localbase's own bookkeeping. */
  async asService<T>(fn: (tx: Transaction) => Promise<T>): Promise<T> {
    return this.pg.transaction(fn)
  }

  async close(): Promise<void> {
    if (!this.pg.closed) await this.pg.close()
  }
}

// One statement sets the whole request context, transaction-local, as PostgREST does.
const contextSql = `select set_config('role', $1, true),
  set_config('request.jwt.claims', $2, true),
  set_config('request.jwt.claim.sub', coalesce($2::jsonb ->> 'sub', ''), true),
  set_config('request.jwt.claim.role', $1, true),
  set_config('request.headers', $3, true),
  set_config('request.method', $4, true),
  set_config('request.path', $5, true),
  set_config('search_path', $6, true),
  (select count(set_config(key, value, true)) from jsonb_each_text($7::jsonb))`

function contextParams(ctx: RequestContext): unknown[] {
  const searchPath = (ctx.searchPath ?? ['public', 'extensions'])
    .map((schema) => `"${schema.replaceAll('"', '""')}"`)
    .join(', ')
  return [
    ctx.role,
    JSON.stringify(ctx.claims),
    JSON.stringify(ctx.headers ?? {}),
    ctx.method ?? '',
    ctx.path ?? '',
    searchPath,
    JSON.stringify(ctx.settings ?? {}),
  ]
}
