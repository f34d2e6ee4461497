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
 * Bulk jobs run when no interactive job waits, or once one has waited `maxBulkWaitMs`: under
 * constant interactive load an import still makes progress (one bulk job per that interval
 * at the least) instead of starving.
 */
export class WorkQueue {
  private readonly interactive: Job[] = []
  private readonly bulk: Job[] = []
  private running = false
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
      ;(isBulk() ? this.bulk : this.interactive).push(job)
      if (!this.running) this.next()
    })
  }

  /** How many jobs wait, by kind. */
  get waiting(): { interactive: number; bulk: number } {
    return { interactive: this.interactive.length, bulk: this.bulk.length }
  }

  private next(): void {
    const oldBulk = this.bulk[0]
    const job =
      oldBulk && performance.now() - oldBulk.queuedAt >= this.maxBulkWaitMs
        ? this.bulk.shift()
        : (this.interactive.shift() ?? this.bulk.shift())
    if (!job) {
      this.running = false
      return
    }
    this.running = true
    void job.run().finally(() => this.next())
  }
}
