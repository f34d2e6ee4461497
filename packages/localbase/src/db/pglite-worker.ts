import { mkdirSync, readFileSync } from 'node:fs'
import { parentPort, workerData } from 'node:worker_threads'
import { PGlite, type Transaction } from '@electric-sql/pglite'
import { PGLiteSocketServer } from '@electric-sql/pglite-socket'
import { extensions } from './extensions.ts'
import { pipelined } from './pipeline.ts'
import type { Statement } from './database.ts'
import { startParams } from './start-params.ts'
import {
  toWorkerError,
  type WorkerCall,
  type WorkerOptions,
  type WorkerReply,
  type WorkerRequest,
} from './worker-protocol.ts'

// The thread that owns PGlite. A statement runs here, in WASM, for as long as it takes, while
// the main thread keeps serving HTTP and WebSockets. The main thread orders the work (see
// work-queue.ts) and sends at most one job ahead of the running one; PGlite's own locks still
// serialise whatever else runs here (the --db-port socket's clients).

const port = parentPort!
const options = workerData as WorkerOptions

/** A transaction held open for the main thread until it sends `end`. */
type OpenTransaction = { tx: Transaction; end: (commit: boolean) => void; done: Promise<void> }

class RollbackRequested extends Error {}

const transactions = new Map<number, OpenTransaction>()
const listeners = new Map<number, () => Promise<void>>()
let nextId = 1
let socket: PGLiteSocketServer | null = null

async function open(): Promise<PGlite> {
  if (options.dataDir) mkdirSync(options.dataDir, { recursive: true })
  return PGlite.create({
    ...(options.dataDir ? { dataDir: options.dataDir } : {}),
    ...(options.loadDataDir ? { loadDataDir: new Blob([readFileSync(options.loadDataDir)]) } : {}),
    extensions,
    startParams,
    pgliteWasmModule: options.pgliteWasmModule,
    initdbWasmModule: options.initdbWasmModule,
  })
}

/**
 * Opens a PGlite transaction, runs `first` in it (a caller's context: one message for both
 * rather than two, while the transaction holds the database) and parks inside it; resolves
 * once it is open, or rejects with `first`'s error, rolled back.
 */
function begin(pg: PGlite, first?: Statement): Promise<number> {
  return new Promise((resolve, reject) => {
    const id = nextId++
    let opened = false
    const done = pg
      .transaction(async (tx) => {
        if (first) await tx.query(first.sql, first.values)
        let end!: (commit: boolean) => void
        const ended = new Promise<void>((resolveEnd, rejectEnd) => {
          end = (commit) => (commit ? resolveEnd() : rejectEnd(new RollbackRequested()))
        })
        transactions.set(id, { tx, end, done })
        opened = true
        resolve(id)
        await ended
      })
      .catch((error: unknown) => {
        if (!opened) reject(error)
        if (!(error instanceof RollbackRequested)) throw error
      })
      .finally(() => transactions.delete(id))
    // The outcome is read by `end`; until then a failed commit must not be unhandled.
    done.catch(() => {})
  })
}

function transaction(id: number | null): Transaction | PGlite {
  if (id === null) return pg
  const open = transactions.get(id)
  if (!open) throw new Error(`transaction ${id} is not open`)
  return open.tx
}

async function handle(
  request: WorkerRequest,
): Promise<{ value: unknown; transfer?: ArrayBuffer[] }> {
  switch (request.op) {
    case 'query':
      return { value: await transaction(request.tx).query(request.sql, request.params) }
    case 'exec':
      return { value: await transaction(request.tx).exec(request.sql) }
    case 'pipelined': {
      const { prelude, sql, values, write } = request
      return { value: await pipelined(pg, prelude, sql, values, { write }) }
    }
    case 'begin':
      return { value: await begin(pg, request.first) }
    case 'end': {
      const open = transactions.get(request.tx)
      if (!open) throw new Error(`transaction ${request.tx} is not open`)
      open.end(request.commit)
      await open.done
      return { value: null }
    }
    case 'listen': {
      const id = nextId++
      const unlisten = await pg.listen(request.channel, (payload) =>
        port.postMessage({ notify: id, payload }),
      )
      listeners.set(id, unlisten)
      return { value: id }
    }
    case 'unlisten': {
      const unlisten = listeners.get(request.listener)
      listeners.delete(request.listener)
      await unlisten?.()
      return { value: null }
    }
    case 'dump': {
      const bytes = new Uint8Array(await (await pg.dumpDataDir(request.compression)).arrayBuffer())
      return { value: bytes, transfer: [bytes.buffer] }
    }
    case 'serve-socket':
      if (socket) throw new Error('the database socket is already being served')
      socket = new PGLiteSocketServer({ db: pg, port: request.port, host: request.host })
      try {
        await socket.start()
      } catch (error) {
        socket = null
        throw error
      }
      return { value: null }
    case 'stop-socket':
      await socket?.stop()
      socket = null
      return { value: null }
    case 'close':
      await socket?.stop()
      socket = null
      if (!pg.closed) await pg.close()
      return { value: null }
  }
}

function reply(message: WorkerReply, transfer?: ArrayBuffer[]): void {
  try {
    port.postMessage(message, transfer)
  } catch (error) {
    // A value structured clone cannot copy: answer with that error instead of never.
    port.postMessage({ id: message.id, ok: false, error: toWorkerError(error) })
  }
}

let pg: PGlite
try {
  pg = await open()
  port.postMessage({ started: true })
} catch (error) {
  port.postMessage({ started: false, error: toWorkerError(error) })
  process.exit(1)
}

// One request at a time, each answered before the next starts. The main thread sends the
// next job before the running one's answer is back (work-queue.ts); left to PGlite's lock, that
// job could start between the last statement ending and its answer being posted, delaying the
// answer by the whole of its run.
let previous = Promise.resolve()
port.on('message', ({ id, request }: WorkerCall) => {
  previous = previous.then(() =>
    handle(request).then(
      ({ value, transfer }) => reply({ id, ok: true, value }, transfer),
      (error: unknown) => reply({ id, ok: false, error: toWorkerError(error) }),
    ),
  )
})
