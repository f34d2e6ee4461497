import type { Statement } from './database.ts'

// The messages between the main thread's PGliteEngine and the worker thread that owns PGlite
// (pglite-worker.ts). Every request carries an id; the worker answers it exactly once.

export type WorkerRequest =
  | { op: 'query'; sql: string; params: unknown[]; tx: number | null }
  | { op: 'exec'; sql: string; tx: number | null }
  /** `prelude` then `sql` in one implicit transaction, in one round trip (see pipeline.ts). */
  | { op: 'pipelined'; prelude: Statement[]; sql: string; values: unknown[]; write: boolean }
  /** Opens a transaction, runs `first` in it, and answers with its id. */
  | { op: 'begin'; first?: Statement }
  /** Ends transaction `tx`: commits, or rolls back with `commit: false`. */
  | { op: 'end'; tx: number; commit: boolean }
  /** Answers with a listener id; each NOTIFY then arrives as a WorkerNotification. */
  | { op: 'listen'; channel: string }
  | { op: 'unlisten'; listener: number }
  | { op: 'dump'; compression: 'gzip' | 'none' }
  | { op: 'serve-socket'; port: number; host: string }
  | { op: 'stop-socket' }
  | { op: 'close' }

export type WorkerCall = { id: number; request: WorkerRequest }

/** A Postgres error as plain data: its message plus every field (code, detail, hint...). */
export type WorkerError = { message: string; fields: Record<string, unknown> }

export type WorkerReply =
  { id: number; ok: true; value: unknown } | { id: number; ok: false; error: WorkerError }

export type WorkerNotification = { notify: number; payload: string }

/** What the worker posts once PGlite is open, or failed to open. */
export type WorkerStarted = { started: true } | { started: false; error: WorkerError }

/** Starts PGlite in `dataDir` (in memory when null), from a dump at `loadDataDir` if given. */
export type WorkerOptions = {
  dataDir: string | null
  loadDataDir: string | null
  /** PGlite's WASM, compiled once by the main thread. */
  pgliteWasmModule: WebAssembly.Module
  initdbWasmModule: WebAssembly.Module
}

/** Structured clone keeps only an Error's message; Postgres' fields are copied by hand. */
export function toWorkerError(error: unknown): WorkerError {
  if (!(error instanceof Error)) return { message: String(error), fields: {} }
  const fields: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(error)) {
    if (typeof value !== 'function' && typeof value !== 'symbol') fields[key] = value
  }
  return { message: error.message, fields }
}

/** An Error on this thread with the worker's message and fields, and this thread's stack. */
export function fromWorkerError(error: WorkerError): Error {
  return Object.assign(new Error(error.message), error.fields)
}
