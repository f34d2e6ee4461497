/** One statement's answer, as both engines return it. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- callers name their row type or read loosely, as with PGlite
export type Results<T = Record<string, any>> = {
  rows: T[]
  affectedRows?: number
  fields: { name: string; dataTypeID: number }[]
}

/** What services may do inside a transaction: the only database surface they see. */
export interface Transaction {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- see Results
  query<T = Record<string, any>>(sql: string, params?: unknown[]): Promise<Results<T>>
  /** Runs one or more statements without parameters (migrations, `set local`). */
  exec(sql: string): Promise<Results[]>
}

/** The database as a whole, outside any request: owner rights, transactions and NOTIFY. */
export interface Session extends Transaction {
  /** `first`, if given, runs right after BEGIN: on PGlite in the same round trip. */
  transaction<T>(fn: (tx: Transaction) => Promise<T>, first?: Statement): Promise<T>
  /**
   * fn's statements on one connection with nothing else between them (on PGlite, one job of
   * the queue), each its own implicit transaction, as VACUUM needs; fn starts when the
   * connection is its own, so it can time what it holds.
   */
  withConnection<T>(fn: (connection: Transaction) => Promise<T>): Promise<T>
  listen(channel: string, callback: (payload: string) => void): Promise<() => Promise<void>>
  readonly closed: boolean
}

/** A statement sent before a read, in the same transaction. */
export type Statement = { sql: string; values: unknown[] }

/** What only PGlite can do, run in the thread that owns it. */
export interface PGliteControls {
  /** A tar of the data dir (gzipped or not), taken between two statements. */
  dumpDataDir(compression: 'gzip' | 'none'): Promise<Uint8Array>
  /** Serves the Postgres wire protocol on `host:port` (--db-port), sharing PGlite's session. */
  serveSocket(port: number, host: string): Promise<{ stop(): Promise<void> }>
}

/** One Postgres underneath localbase: PGlite in-process or a server reached over `pg`. */
export interface Engine {
  readonly kind: 'pglite' | 'postgres'
  readonly session: Session
  /** PGlite's own abilities (the --db-port socket, data-dir dumps); null on a server. */
  readonly pglite: PGliteControls | null
  /**
   * Runs `prelude` then `sql` in one transaction and returns the rows of `sql`; the prelude
   * makes it read-only (Database.readAsUser's context sets `transaction_read_only`).
   */
  read(prelude: Statement[], sql: string, values: unknown[]): Promise<Record<string, unknown>[]>
  /**
   * Runs `prelude` then `sql` in one transaction that commits unless a statement fails, and
   * returns the rows of `sql`: a write whose outcome is accepted as it comes.
   */
  write(prelude: Statement[], sql: string, values: unknown[]): Promise<Record<string, unknown>[]>
  close(): Promise<void>
}

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

/** The only door to Postgres, whichever engine is underneath. */
export class Database {
  readonly engine: Engine
  constructor(engine: Engine) {
    this.engine = engine
  }

  /** Owner access outside a request: bookkeeping, tests, LISTEN. */
  get pg(): Session {
    return this.engine.session
  }

  /** One transaction with the caller's role and claims; RLS applies. */
  async asUser<T>(ctx: RequestContext, fn: (tx: Transaction) => Promise<T>): Promise<T> {
    return this.engine.session.transaction(fn, { sql: contextSql, values: contextParams(ctx) })
  }

  /**
   * One read-only statement as the caller, in as few round trips as the engine allows. The
   * transaction commits, so use it only where nothing may need rolling back.
   */
  async readAsUser(
    ctx: RequestContext,
    sql: string,
    values: unknown[],
  ): Promise<Record<string, unknown>[]> {
    // Read-only is one more setting of the context statement rather than a statement of its
    // own (SET TRANSACTION READ ONLY is this same setting, transaction-local): a statement
    // less for every read.
    const settings = { ...ctx.settings, transaction_read_only: 'on' }
    return this.engine.read(
      [{ sql: contextSql, values: contextParams({ ...ctx, settings }) }],
      sql,
      values,
    )
  }

  /**
   * One writing statement as the caller, committed with it unless it fails, in as few round
   * trips as the engine allows: for writes nothing decides about after the statement ran.
   */
  async writeAsUser(
    ctx: RequestContext,
    sql: string,
    values: unknown[],
  ): Promise<Record<string, unknown>[]> {
    return this.engine.write([{ sql: contextSql, values: contextParams(ctx) }], sql, values)
  }

  /** One transaction as the database owner, for localbase's own bookkeeping. */
  async asService<T>(fn: (tx: Transaction) => Promise<T>): Promise<T> {
    return this.engine.session.transaction(fn)
  }

  async close(): Promise<void> {
    await this.engine.close()
  }
}

// One statement sets the whole request context, transaction-local, as PostgREST does.
export const contextSql = `select set_config('role', $1, true),
  set_config('request.jwt.claims', $2, true),
  set_config('request.jwt.claim.sub', coalesce($2::jsonb ->> 'sub', ''), true),
  set_config('request.jwt.claim.role', $1, true),
  set_config('request.headers', $3, true),
  set_config('request.method', $4, true),
  set_config('request.path', $5, true),
  set_config('search_path', $6, true),
  (select count(set_config(key, value, true)) from jsonb_each_text($7::jsonb))`

// A verified token's claims are one frozen object, shared by all its requests
// (gateway/caller.ts): their JSON is written once. Objects that could change are not kept.
const claimsText = new WeakMap<object, string>()
function claimsJson(claims: Record<string, unknown>): string {
  let text = claimsText.get(claims)
  if (text === undefined) {
    text = JSON.stringify(claims)
    if (Object.isFrozen(claims)) claimsText.set(claims, text)
  }
  return text
}

function contextParams(ctx: RequestContext): unknown[] {
  const searchPath = (ctx.searchPath ?? ['public', 'extensions'])
    .map((schema) => `"${schema.replaceAll('"', '""')}"`)
    .join(', ')
  return [
    ctx.role,
    claimsJson(ctx.claims),
    JSON.stringify(ctx.headers ?? {}),
    ctx.method ?? '',
    ctx.path ?? '',
    searchPath,
    JSON.stringify(ctx.settings ?? {}),
  ]
}
