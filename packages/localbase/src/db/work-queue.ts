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

type Job = { run: () => Promise<void>; overlap: boolean }

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
 *
 * A job marked `overlap` is one message the worker answers by itself (a pipelined read): the
 * next such job may be sent while it runs (up to `depth` in flight; PGlite's own lock runs
 * them one after another), so the worker starts the next read as soon as it finishes one
 * rather than idling until this thread, busy with HTTP under load, has taken the answer and
 * picked the next job. Any other job (a transaction, which needs this thread between its
 * statements) runs alone, once the jobs in flight have ended.
 */
export class WorkQueue {
  private readonly interactive: Job[] = []
  private readonly bulk: Job[] = []
  /** Jobs sent and not yet ended, and whether one of them must run alone. */
  private inFlight = 0
  private alone = false
  /** When the next bulk job may overtake waiting interactive ones. */
  private bulkDueAt = 0
  private readonly share: number
  private readonly maxBulkWaitMs: number
  private readonly depth: number
  private readonly now: () => number

  constructor({ share = 0.5, maxBulkWaitMs = 200, depth = 2, now = () => performance.now() } = {}) {
    this.share = share
    this.maxBulkWaitMs = maxBulkWaitMs
    this.depth = depth
    this.now = now
  }

  /** Runs `work` when its turn comes; bulk when called inside asBulk. */
  run<T>(work: () => Promise<T>, { overlap = false } = {}): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      // Bound to the caller's async context, not that of the job before it.
      const run = AsyncResource.bind(() => Promise.resolve().then(work).then(resolve, reject))
      ;(isBulk() ? this.bulk : this.interactive).push({ run, overlap })
      this.next()
    })
  }

  private next(): void {
    while (!this.alone && this.inFlight < this.depth) {
      const bulkDue =
        this.bulk.length > 0 && (this.interactive.length === 0 || this.now() >= this.bulkDueAt)
      const queue = bulkDue ? this.bulk : this.interactive
      const job = queue[0]
      if (!job || (this.inFlight > 0 && !job.overlap)) return
      queue.shift()
      this.inFlight++
      this.alone = !job.overlap
      const started = this.now()
      void job.run().finally(() => {
        if (bulkDue) {
          const ended = this.now()
          const interactiveTurn = ((ended - started) * (1 - this.share)) / this.share
          this.bulkDueAt = ended + Math.min(interactiveTurn, this.maxBulkWaitMs)
        }
        this.inFlight--
        this.alone = false
        this.next()
      })
    }
  }
}
