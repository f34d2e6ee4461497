import { readFile } from 'node:fs/promises'
import { Worker } from 'node:worker_threads'
import type {
  Engine,
  PGliteControls,
  Results,
  Session,
  Statement,
  Transaction,
} from './database.ts'
import { type JobRecord, PGliteTrace, traceSql } from './pglite-trace.ts'
import { bulkShareFromEnv, isBulk, jobKey, type Work, WorkQueue } from './work-queue.ts'
import {
  fromWorkerError,
  type WorkerCall,
  type WorkerNotification,
  type WorkerOptions,
  type WorkerReply,
  type WorkerRequest,
  type WorkerStarted,
} from './worker-protocol.ts'

type WasmModules = Pick<WorkerOptions, 'pgliteWasmModule' | 'initdbWasmModule'>
let wasm: Promise<WasmModules> | null = null

/**
 * PGlite's WASM, compiled once per process: in one thread PGlite keeps its compiled module
 * between instances, but each new worker would compile it again (seconds per start).
 */
function wasmModules(): Promise<WasmModules> {
  const dist = import.meta.resolve('@electric-sql/pglite')
  const compile = async (file: string) => WebAssembly.compile(await readFile(new URL(file, dist)))
  wasm ??= Promise.all([compile('pglite.wasm'), compile('initdb.wasm')]).then(
    ([pgliteWasmModule, initdbWasmModule]) => ({ pgliteWasmModule, initdbWasmModule }),
  )
  return wasm
}

type Pending = { resolve: (value: unknown) => void; reject: (error: Error) => void }
/** A traced job's requests to the worker, statements, and slowest statement. */
type Tally = { calls: number; statements: number; slowest: { sql: string; ms: number } }

/**
 * Postgres in a worker thread (pglite-worker.ts): a long statement (a bulk insert, a vacuum,
 * a dump) runs there while this thread goes on serving HTTP and WebSockets. PGlite is a
 * single connection, so the work goes one job at a time, in the order WorkQueue picks
 * (interactive before bulk, the shorter first; the next job is sent once the running one has
 * sent its last request, so that it is there when the worker is free); a transaction is one
 * job, holding the worker until its `fn` settles, as PGlite's own transaction() held its
 * connection. Rows arrive by structured clone, parsed by PGlite in the worker exactly as
 * before. If the worker dies, every call under way and every later one fails with that reason
 * (so /health/ready turns 503).
 */
export class PGliteEngine implements Engine {
  readonly kind = 'pglite'
  readonly session: Session
  readonly pglite: PGliteControls
  /** The thread PGlite runs in. */
  readonly worker: Worker
  private readonly queue: WorkQueue
  private readonly pending = new Map<number, Pending>()
  private readonly listeners = new Map<number, (payload: string) => void>()
  private nextId = 1
  private failure: Error | null = null
  private closing = false
  private readonly trace = PGliteTrace.fromEnv()
  /** What the job sending now has sent and its slowest statement, while tracing. */
  private tally: Tally | null = null

  private constructor(worker: Worker, bulkShare: number) {
    this.worker = worker
    this.queue = new WorkQueue({ share: bulkShare })
    worker.on('message', (message: WorkerReply | WorkerNotification) => {
      if ('notify' in message) return this.listeners.get(message.notify)?.(message.payload)
      const call = this.pending.get(message.id)
      this.pending.delete(message.id)
      if (this.pending.size === 0) worker.unref()
      if (message.ok) call?.resolve(message.value)
      else call?.reject(fromWorkerError(message.error))
    })
    worker.on('error', (error) => this.fail(error))
    worker.on('exit', (code) => {
      this.fail(new Error(`the database worker exited (code ${code})`))
    })
    this.session = this.makeSession()
    this.pglite = {
      dumpDataDir: (compression) =>
        this.job(() => this.call({ op: 'dump', compression })) as Promise<Uint8Array>,
      serveSocket: async (port, host) => {
        await this.call({ op: 'serve-socket', port, host })
        return { stop: async () => void (await this.call({ op: 'stop-socket' })) }
      },
    }
  }

  /** Starts the worker and PGlite in `dataDir` (in memory when null), from a dump if given. */
  static async open(dataDir: string | null, loadDataDir: string | null = null) {
    const bulkShare = bulkShareFromEnv() // refused before any thread starts
    const options: WorkerOptions = { dataDir, loadDataDir, ...(await wasmModules()) }
    const worker = new Worker(new URL('./pglite-worker.ts', import.meta.url), {
      workerData: options,
    })
    const onExit = (code: number) => failed(new Error(`the database worker exited (code ${code})`))
    let failed!: (error: Error) => void
    const started = await new Promise<WorkerStarted>((resolve, reject) => {
      failed = reject
      worker.once('message', resolve)
      worker.once('error', reject)
      worker.once('exit', onExit)
    }).finally(() => {
      worker.off('error', failed)
      worker.off('exit', onExit)
    })
    if (!started.started) {
      await worker.terminate()
      throw fromWorkerError(started.error)
    }
    worker.unref()
    return new PGliteEngine(worker, bulkShare)
  }

  get closed(): boolean {
    return this.closing || this.failure !== null
  }

  read(prelude: Statement[], sql: string, values: unknown[]) {
    return this.pipelined(prelude, sql, values, false)
  }

  write(prelude: Statement[], sql: string, values: unknown[]) {
    return this.pipelined(prelude, sql, values, true)
  }

  private pipelined(prelude: Statement[], sql: string, values: unknown[], write: boolean) {
    return this.job((handOff) =>
      this.call({ op: 'pipelined', prelude, sql, values, write }, handOff),
    ) as Promise<Record<string, unknown>[]>
  }

  async close(): Promise<void> {
    if (this.closing) return
    // After the work already queued; then nothing new is accepted.
    const closed = this.failure
      ? Promise.resolve()
      : this.queue.run(() => this.call({ op: 'close' }))
    this.closing = true
    try {
      await closed
    } finally {
      this.trace?.flush()
      await this.worker.terminate()
    }
  }

  /** Runs `work` as one job of the queue (bulk inside asBulk), traced when tracing is on. */
  private job<T>(work: Work<T>): Promise<T> {
    const trace = this.trace
    if (!trace) return this.queue.run(work)
    const kind: JobRecord['kind'] = isBulk() ? 'bulk' : 'interactive'
    const key = jobKey()
    const tally: Tally = { calls: 0, statements: 0, slowest: { sql: '', ms: -1 } }
    return this.queue.run(
      (handOff) => {
        // Its calls are all made before it hands off, so before the next job starts.
        this.tally = tally
        return work(handOff)
      },
      ({ queuedAt, at, holdMs }) =>
        trace.record({
          at,
          kind,
          key,
          waitMs: at - queuedAt,
          holdMs,
          calls: tally.calls,
          statements: tally.statements,
          sql: tally.slowest.sql,
        }),
    )
  }

  /**
   * Sends one request to the worker; the caller holds the queue (or a transaction). `sent`, for
   * a job's last request, is called once it is on its way (WorkQueue's handOff).
   */
  private call(request: WorkerRequest, sent?: () => void): Promise<unknown> {
    if (this.failure) return Promise.reject(this.failure)
    const id = this.nextId++
    const answer = new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject })
      // Keeps the process alive only while an answer is awaited.
      this.worker.ref()
      this.worker.postMessage({ id, request } satisfies WorkerCall)
    })
    sent?.()
    return this.trace && this.tally ? this.timed(request, answer, this.tally) : answer
  }

  /** Counts the request in its job's tally, its statement the slowest if it is. */
  private async timed(
    request: WorkerRequest,
    answer: Promise<unknown>,
    tally: Tally,
  ): Promise<unknown> {
    const sent = performance.now()
    tally.calls++
    // BEGIN and COMMIT count: each is a statement Postgres runs.
    tally.statements +=
      request.op === 'pipelined'
        ? request.prelude.length + 1
        : request.op === 'begin' && request.first
          ? 2
          : 1
    try {
      return await answer
    } finally {
      const ms = performance.now() - sent
      const sql = 'sql' in request ? request.sql : request.op
      if (ms > tally.slowest.ms) tally.slowest = { sql: traceSql(sql), ms }
    }
  }

  private fail(error: Error): void {
    if (this.failure) return
    this.failure = this.closing ? new Error('the database is closed') : error
    if (!this.closing) console.error('[localbase] the database worker stopped:', error)
    for (const call of this.pending.values()) call.reject(this.failure)
    this.pending.clear()
  }

  private makeSession(): Session {
    // Outside a transaction each call is one job of the queue.
    const queued = <T>(work: Work<T>): Promise<T> =>
      this.closing ? Promise.reject(new Error('the database is closed')) : this.job(work)
    const statements = (tx: number | null): Transaction => ({
      query: async <T>(sql: string, params: unknown[] = []) =>
        (await this.call({ op: 'query', sql, params, tx })) as Results<T>,
      exec: async (sql: string) => (await this.call({ op: 'exec', sql, tx })) as Results[],
    })
    const outside = statements(null)
    const isClosed = () => this.closed
    return {
      query: <T>(sql: string, params?: unknown[]) => queued(() => outside.query<T>(sql, params)),
      exec: (sql: string) => queued(() => outside.exec(sql)),
      withConnection: <T>(fn: (connection: Transaction) => Promise<T>) => queued(() => fn(outside)),
      transaction: <T>(fn: (tx: Transaction) => Promise<T>, first?: Statement) =>
        queued(async (handOff) => {
          const tx = (await this.call({ op: 'begin', ...(first ? { first } : {}) })) as number
          let result: T
          try {
            result = await fn(statements(tx))
          } catch (error) {
            await this.call({ op: 'end', tx, commit: false }, handOff).catch(() => {})
            throw error
          }
          await this.call({ op: 'end', tx, commit: true }, handOff)
          return result
        }),
      listen: async (channel: string, callback: (payload: string) => void) => {
        const listener = (await queued(() => this.call({ op: 'listen', channel }))) as number
        this.listeners.set(listener, callback)
        return async () => {
          this.listeners.delete(listener)
          if (!this.closed) await this.queue.run(() => this.call({ op: 'unlisten', listener }))
        }
      },
      get closed() {
        return isClosed()
      },
    }
  }
}
