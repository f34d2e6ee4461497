import { createHash } from 'node:crypto'
import { availableParallelism } from 'node:os'
import pg from 'pg'
import type { Engine, Results, Session, Statement, Transaction } from './database.ts'
import { pgTypes } from './pg-types.ts'

/** Named statements kept per connection before further texts go unnamed (server memory). */
const maxNamedPerConnection = 500

/** Which SQL texts each pooled connection has prepared, under which names. */
const preparedOn = new WeakMap<pg.PoolClient, Set<string>>()

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

/** A pooled connection inside a transaction, seen through our own Transaction type. */
function transactionOn(client: pg.PoolClient): Transaction {
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
      transaction: (fn) => this.transaction(fn),
      listen: (channel, callback) => this.listen(channel, callback),
    }
  }

  private async onClient<T>(fn: (tx: Transaction) => Promise<T>): Promise<T> {
    const client = await this.pool.connect()
    try {
      return await fn(transactionOn(client))
    } finally {
      client.release()
    }
  }

  private async transaction<T>(fn: (tx: Transaction) => Promise<T>): Promise<T> {
    const client = await this.pool.connect()
    let broken: Error | undefined
    try {
      await client.query('begin')
      const result = await fn(transactionOn(client))
      await client.query('commit')
      return result
    } catch (error) {
      await client.query('rollback').catch((e: Error) => (broken = e))
      throw error
    } finally {
      client.release(broken)
    }
  }

  /** A statement name for `sql`, if this connection may still prepare one. */
  private nameFor(client: pg.PoolClient, sql: string): string | undefined {
    let prepared = preparedOn.get(client)
    if (!prepared) preparedOn.set(client, (prepared = new Set()))
    let name = this.names.get(sql)
    if (!name) this.names.set(sql, (name = statementName(sql)))
    if (!prepared.has(name) && prepared.size >= maxNamedPerConnection) return undefined
    prepared.add(name)
    return name
  }

  async read(prelude: Statement[], sql: string, values: unknown[]) {
    const run = async () => {
      const client = await this.pool.connect()
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
        throw error
      } finally {
        client.release(broken)
      }
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
