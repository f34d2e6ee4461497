import { AsyncLocalStorage, AsyncResource } from 'node:async_hooks'

const bulkContext = new AsyncLocalStorage<boolean>()

/**
 * Runs `fn` as bulk work: its database calls wait behind interactive ones (see WorkQueue).
 * For work nobody is waiting on a page for: large inserts from uploads and imports, upkeep.
 */
export function asBulk<T>(fn: () => Promise<T>): Promise<T> {
  return bulkContext.run(true, fn)
}

/** Whether the caller is inside asBulk. */
export function isBulk(): boolean {
  return bulkContext.getStore() === true
}

/**
 * The share of the worker bulk work keeps under load: LOCALBASE_BULK_SHARE, else 0.5. A larger
 * share speeds an import up while requests run, and slows the requests by as much: the worker
 * is one thread, and what one gets the other waits for (see bench:load).
 */
export function bulkShareFromEnv(env: NodeJS.ProcessEnv = process.env): number {
  const given = env.LOCALBASE_BULK_SHARE
  if (given === undefined || given === '') return 0.5
  const share = Number(given)
  if (!(share > 0 && share < 1)) {
    throw new Error(`LOCALBASE_BULK_SHARE must be a number between 0 and 1, not "${given}"`)
  }
  return share
}

type Job = { run: () => Promise<void> }

/**
 * Orders the work for PGlite, which runs one statement (or holds one transaction) at a time.
 * One job runs at a time; when it ends, the next waiting interactive job goes first, so a
 * request's read waits at most for the job under way, never for a backlog of bulk inserts.
 * Bulk work runs when no interactive job waits, and otherwise takes turns by time: after a
 * bulk job of d ms, interactive jobs alone get d × (1 − share) / share ms (at most
 * `maxBulkWaitMs`) before the next bulk job goes. Under constant interactive load an import
 * thus keeps about `share` of the worker (its throughput) while requests wait at most about
 * one bulk job, which is why bulk writes are kept short (chunk inserts of ~24,000
 * characters, one table per vacuum pass).
 */
export class WorkQueue {
  private readonly interactive: Job[] = []
  private readonly bulk: Job[] = []
  private running = false
  /** When the next bulk job may overtake waiting interactive ones. */
  private bulkDueAt = 0
  private readonly share: number
  private readonly maxBulkWaitMs: number
  private readonly now: () => number

  constructor({ share = 0.5, maxBulkWaitMs = 200, now = () => performance.now() } = {}) {
    this.share = share
    this.maxBulkWaitMs = maxBulkWaitMs
    this.now = now
  }

  /** Runs `work` when its turn comes; bulk when called inside asBulk. */
  run<T>(work: () => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const start = () => Promise.resolve().then(work).then(resolve, reject)
      // A job that waits is bound to its caller's async context, not that of the job before it,
      // which starts it. One that finds the queue idle starts right here, in that context
      // already: binding would cost an async resource per database call for nothing.
      const run = this.running ? AsyncResource.bind(start) : start
      ;(isBulk() ? this.bulk : this.interactive).push({ run })
      if (!this.running) this.next()
    })
  }

  private next(): void {
    const bulkDue =
      this.bulk.length > 0 && (this.interactive.length === 0 || this.now() >= this.bulkDueAt)
    const job = bulkDue ? this.bulk.shift() : this.interactive.shift()
    if (!job) {
      this.running = false
      return
    }
    this.running = true
    const started = this.now()
    void job.run().finally(() => {
      if (bulkDue) {
        const ended = this.now()
        const interactiveTurn = ((ended - started) * (1 - this.share)) / this.share
        this.bulkDueAt = ended + Math.min(interactiveTurn, this.maxBulkWaitMs)
      }
      this.next()
    })
  }
}
