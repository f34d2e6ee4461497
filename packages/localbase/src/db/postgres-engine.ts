import { createHash } from 'node:crypto'
import { availableParallelism } from 'node:os'
import pg from 'pg'
import type { Engine, Results, Session, Statement, Transaction } from './database.ts'
import { pgTypes } from './pg-types.ts'

/** Named statements kept per connection before further texts go unnamed (server memory). */
const maxNamedPerConnection = 500

/** Which SQL texts each pooled connection has prepared, under which names. */
const preparedOn = new WeakMap<pg.ClientBase, Set<string>>()

/** A channel name as a quoted identifier. */
const quote = (channel: string) => `"${channel.replaceAll('"', '""')}"`

const statementName = (sql: string) =>
  `lb_${createHash('sha1').update(sql).digest('hex').slice(0, 16)}`

function toResults(result: pg.QueryResult): Results {
  const dml = /^(INSERT|UPDATE|DELETE|MERGE)/.test(result.command ?? '')
  return {
    rows: result.rows,
    affectedRows: dml ? (result.rowCount ?? 0) : 0,
    fields: (result.fields ?? []).map((f) => ({ name: f.name, dataTypeID: f.dataTypeID })),
  }
}

/** Per client watched (see `watch`): how many answers its server has sent. */
const answerCounts = new WeakMap<pg.ClientBase, { n: number }>()

/**
 * SQLSTATEs of a backend ended from outside (a restart's shutdown, an admin's
 * pg_terminate_backend, another backend's crash) and node-postgres's refusal to send on a
 * connection it already knows is gone.
 */
const endedCodes = new Set(['57P01', '57P02', '57P03'])
const notQueryable = /is not queryable$/

/**
 * Whether the server never ran a statement: its connection was ended by the server (or
 * known gone before it was sent) and nothing came back for it. A backend that read a
 * statement answers ParseComplete or BindComplete first (extended protocol), and these reach
 * us ahead of its FATAL; only an ended backend that never read it sends the FATAL alone. A
 * script (simple protocol) may have run without output, but then it was rolled back: a
 * backend that committed says CommandComplete first. A connection that merely dropped may
 * have committed and lost the reply: never this.
 */
function endedBeforeRun(error: unknown, answered: boolean): boolean {
  const { code, message } = error as { code?: string; message?: string }
  if (answered) return false
  return endedCodes.has(code ?? '') || notQueryable.test(message ?? '')
}

/** What a backend answers to a statement it read, before any result. */
const answerMessages = [
  'parseComplete',
  'bindComplete',
  'noData',
  'rowDescription',
  'dataRow',
  'commandComplete',
  'emptyQuery',
]

/** Ended as above, or dropped: for a read-only transaction, which has nothing to commit. */
function connectionLost(error: unknown): boolean {
  const { message } = error as { message?: string }
  return endedBeforeRun(error, false) || /^Connection terminated/.test(message ?? '')
}

/**
 * Once per client: counts its server's answers (for endedBeforeRun), and keeps a connection
 * ended while checked out from crashing the process: node-postgres emits 'error' on a client
 * with no query running, which only the pool listens to, and only while it is idle. The
 * statement's own error, or the pool's listener, reports it.
 */
function watch(client: pg.ClientBase) {
  if (answerCounts.has(client)) return
  const answers = { n: 0 }
  answerCounts.set(client, answers)
  const { connection } = client as pg.Client
  for (const name of answerMessages) connection.on(name, () => answers.n++)
  client.on('error', () => {})
}

/** A pooled connection inside a transaction, seen through our own Transaction type. */
function transactionOn(client: pg.ClientBase): Transaction {
  return {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- Transaction's default row
    async query<T = Record<string, any>>(sql: string, params: unknown[] = []) {
      // Extended protocol even without parameters: one statement per call, as PGlite's query.
      const config = { text: sql, values: params, queryMode: 'extended' } as pg.QueryConfig
      const result = await client.query(config)
      return toResults(result) as Results<T>
    },
    async exec(sql: string) {
      const result = (await client.query(sql)) as pg.QueryResult | pg.QueryResult[]
      return (Array.isArray(result) ? result : [result]).map(toResults)
    },
  }
}

/**
 * A Postgres server over node-postgres: a pool sized to the machine, each transaction on
 * one connection, the request-context statement and single reads prepared once per
 * connection, NOTIFY on a dedicated connection.
 */
export class PostgresEngine implements Engine {
  readonly kind = 'postgres'
  readonly pglite = null
  readonly session: Session
  private readonly pool: pg.Pool
  private readonly url: string
  private listener: Promise<pg.Client> | null = null
  private readonly listeners = new Map<string, Set<(payload: string) => void>>()
  /** SQL text to statement name; renamed when Postgres says a cached plan went stale. */
  private readonly names = new Map<string, string>()
  private generation = 0
  private closed = false

  constructor(url: string) {
    this.url = url
    this.pool = new pg.Pool({
      connectionString: url,
      // Node does the HTTP work on one core; Postgres uses the rest. Two per core keeps every
      // core busy while some connections wait on the network.
      max: Math.max(4, 2 * availableParallelism()),
      types: pgTypes,
    })
    // An idle connection the server drops must not take the process down.
    this.pool.on('error', (error) => console.error('[localbase] postgres pool:', error.message))
    const isClosed = () => this.closed
    this.session = {
      get closed() {
        return isClosed()
      },
      // Outside transaction(), each statement is its own implicit transaction, as in psql.
      query: (sql, params) => this.onClient((tx) => tx.query(sql, params)),
      exec: (sql) => this.onClient((tx) => tx.exec(sql)),
      withConnection: (fn) => this.onClient(fn),
      transaction: (fn, first) =>
        this.transaction(async (tx) => {
          if (first) await tx.query(first.sql, first.values)
          return fn(tx)
        }),
      listen: (channel, callback) => this.listen(channel, callback),
    }
  }

  /**
   * A connection to use and give back, watched: from the pool, or with `fresh` a new one
   * outside it, for a retry after a restart (the pool's other idle connections may be dead
   * too, their ends not yet read).
   */
  private async held(fresh: boolean) {
    if (fresh) {
      const client = new pg.Client({ connectionString: this.url, types: pgTypes })
      watch(client)
      await client.connect()
      return { client, release: () => void client.end().catch(() => {}) }
    }
    const client = await this.pool.connect()
    watch(client)
    return { client, release: (error?: Error) => client.release(error) }
  }

  /**
   * An autocommit statement (or script), once more on a fresh connection when the first
   * one's connection was ended before the server ran it (endedBeforeRun).
   */
  private async onClient<T>(fn: (tx: Transaction) => Promise<T>): Promise<T> {
    let retry = false
    const attempt = async (fresh: boolean) => {
      const { client, release } = await this.held(fresh)
      const answers = answerCounts.get(client)!
      const before = answers.n
      let lost: Error | undefined
      try {
        return await fn(transactionOn(client))
      } catch (error) {
        // The pool drops a connection given back with an error instead of reusing it.
        if (connectionLost(error)) lost = error as Error
        retry = !fresh && endedBeforeRun(error, answers.n !== before)
        throw error
      } finally {
        release(lost)
      }
    }
    try {
      return await attempt(false)
    } catch (error) {
      if (!retry) throw error
      return attempt(true)
    }
  }

  /** fn runs once: a transaction is retried only when its BEGIN found the connection ended. */
  private async transaction<T>(fn: (tx: Transaction) => Promise<T>): Promise<T> {
    const attempt = async (fresh: boolean) => {
      const { client, release } = await this.held(fresh)
      let broken: Error | undefined
      try {
        await client.query('begin')
      } catch (error) {
        release(error as Error)
        if (!fresh && connectionLost(error)) return attempt(true)
        throw error
      }
      try {
        const result = await fn(transactionOn(client))
        await client.query('commit')
        return result
      } catch (error) {
        await client.query('rollback').catch((e: Error) => (broken = e))
        throw error
      } finally {
        release(broken)
      }
    }
    return attempt(false)
  }

  /** On a server the round trips are cheap: an ordinary transaction. */
  write(prelude: Statement[], sql: string, values: unknown[]) {
    return this.transaction(async (tx) => {
      for (const s of prelude) await tx.query(s.sql, s.values)
      return (await tx.query(sql, values)).rows
    })
  }

  /** A statement name for `sql`, if this connection may still prepare one. */
  private nameFor(client: pg.ClientBase, sql: string): string | undefined {
    let prepared = preparedOn.get(client)
    if (!prepared) preparedOn.set(client, (prepared = new Set()))
    let name = this.names.get(sql)
    if (!name) this.names.set(sql, (name = statementName(sql)))
    if (!prepared.has(name) && prepared.size >= maxNamedPerConnection) return undefined
    prepared.add(name)
    return name
  }

  /**
   * A read-only transaction: retried once on a fresh connection when its connection was
   * lost, since it has nothing to commit; and once more with new statement names below.
   */
  async read(prelude: Statement[], sql: string, values: unknown[]) {
    const run = async (fresh = false): Promise<Record<string, unknown>[]> => {
      const { client, release } = await this.held(fresh)
      let broken: Error | undefined
      try {
        await client.query('begin read only')
        for (const s of prelude)
          await client.query({ name: this.nameFor(client, s.sql), text: s.sql, values: s.values })
        const result = await client.query({
          name: this.nameFor(client, sql),
          text: sql,
          values,
        })
        await client.query('commit')
        return result.rows as Record<string, unknown>[]
      } catch (error) {
        await client.query('rollback').catch((e: Error) => (broken = e))
        if (fresh || !connectionLost(error)) throw error
      } finally {
        release(broken)
      }
      return run(true)
    }
    try {
      return await run()
    } catch (error) {
      // 0A000: a migration changed the columns under a prepared statement; 26000: a DISCARD
      // ALL dropped it behind node-postgres's back. New names prepare them afresh on every
      // connection; the old ones are left to their connections.
      const code = (error as { code?: string }).code
      if (code !== '0A000' && code !== '26000') throw error
      const generation = ++this.generation
      for (const text of [...prelude.map((s) => s.sql), sql])
        this.names.set(text, `${statementName(text)}_${generation}`)
      return run()
    }
  }

  /**
   * The LISTEN connection, with every channel listened to. When it drops (the server
   * restarted, or an admin ended the backend) a new one takes its place and listens again,
   * so realtime changes and `NOTIFY pgrst` keep arriving; what was sent while it was down
   * is lost, as with a Realtime server's replication slot gone.
   */
  private listenerClient(): Promise<pg.Client> {
    if (!this.listener) {
      const connecting = this.connectListener(false)
      // A first connection that fails is tried afresh by the next listen().
      connecting.catch(() => {
        if (this.listener === connecting) this.listener = null
      })
      this.listener = connecting
    }
    return this.listener
  }

  private async connectListener(reconnecting: boolean): Promise<pg.Client> {
    for (let attempt = 0; ; attempt++) {
      if (this.closed) throw new Error('localbase: the database is closed')
      const client = new pg.Client({ connectionString: this.url, types: pgTypes })
      client.on('notification', (n) => {
        for (const cb of this.listeners.get(n.channel) ?? []) cb(n.payload ?? '')
      })
      client.on('error', (error) => console.error('[localbase] postgres listener:', error.message))
      try {
        await client.connect()
        for (const channel of this.listeners.keys()) await client.query(`listen ${quote(channel)}`)
      } catch (error) {
        await client.end().catch(() => {})
        if (!reconnecting) throw error
        // The server is still starting up: back off up to a second between tries.
        await new Promise((resolve) => setTimeout(resolve, Math.min(1000, 50 * 2 ** attempt)))
        continue
      }
      client.once('end', () => {
        if (this.closed) return
        console.error('[localbase] postgres listener: connection lost, reconnecting')
        const next = this.connectListener(true)
        next.catch(() => {}) // only when closed meanwhile
        this.listener = next
      })
      return client
    }
  }

  private async listen(channel: string, callback: (payload: string) => void) {
    let callbacks = this.listeners.get(channel)
    if (!callbacks) {
      this.listeners.set(channel, (callbacks = new Set([callback])))
      try {
        await this.onListener(`listen ${quote(channel)}`)
      } catch (error) {
        // The caller gets no way to unlisten: nothing of this call may stay behind.
        this.listeners.delete(channel)
        throw error
      }
    } else callbacks.add(callback)
    return async () => {
      callbacks.delete(callback)
      if (callbacks.size || this.closed) return
      this.listeners.delete(channel)
      await this.onListener(`unlisten ${quote(channel)}`)
    }
  }

  /** A LISTEN or UNLISTEN; one the connection's loss cut off, the next connection settles. */
  private async onListener(sql: string) {
    const listener = this.listenerClient()
    try {
      await (await listener).query(sql)
    } catch (error) {
      if (this.listener === listener) throw error
    }
  }

  async close(): Promise<void> {
    if (this.closed) return
    this.closed = true
    const listener = await this.listener?.catch(() => null)
    await listener?.end()
    await this.pool.end()
  }
}
