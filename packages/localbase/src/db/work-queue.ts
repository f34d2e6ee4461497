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

type Job = { run: () => Promise<void>; queuedAt: number }

/**
 * Orders the work for PGlite, which runs one statement (or holds one transaction) at a time.
 * One job runs at a time; when it ends, the next waiting interactive job goes first, so a
 * request's read waits at most for the job under way, never for a backlog of bulk inserts.
 * A bulk job runs when no interactive job waits, or when interactive jobs alone have run for
 * `maxBulkWaitMs` while it waited: under constant interactive load an import still gets a
 * turn at least that often instead of starving, and the requests queued behind a bulk job
 * all go before the next one.
 */
export class WorkQueue {
  private readonly interactive: Job[] = []
  private readonly bulk: Job[] = []
  private running = false
  /** When bulk work last ran or, if none waited, began to wait. */
  private bulkTurnAt = 0
  private readonly maxBulkWaitMs: number

  constructor(maxBulkWaitMs = 200) {
    this.maxBulkWaitMs = maxBulkWaitMs
  }

  /** Runs `work` when its turn comes; bulk when called inside asBulk. */
  run<T>(work: () => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      // Bound to the caller's async context, not that of the job before it.
      const run = AsyncResource.bind(() => Promise.resolve().then(work).then(resolve, reject))
      const job = { run, queuedAt: performance.now() }
      if (!isBulk()) this.interactive.push(job)
      else if (this.bulk.push(job) === 1) this.bulkTurnAt = job.queuedAt
      if (!this.running) this.next()
    })
  }

  private next(): void {
    const bulkDue =
      this.bulk.length > 0 &&
      (this.interactive.length === 0 || performance.now() - this.bulkTurnAt >= this.maxBulkWaitMs)
    const job = bulkDue ? this.bulk.shift() : this.interactive.shift()
    if (!job) {
      this.running = false
      return
    }
    this.running = true
    void job.run().finally(() => {
      if (bulkDue) this.bulkTurnAt = performance.now()
      this.next()
    })
  }
}
