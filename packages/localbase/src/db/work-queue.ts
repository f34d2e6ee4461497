import { AsyncLocalStorage, AsyncResource } from 'node:async_hooks'
import { HoldEstimates } from './hold-estimates.ts'

/** What the caller's database jobs are: bulk or interactive, and what they run (their key). */
type JobContext = { bulk: boolean; key: string }
const jobContext = new AsyncLocalStorage<JobContext>()
/** Jobs nobody named (migrations, localbase's own bookkeeping) share one key. */
const UNNAMED: JobContext = { bulk: false, key: 'unnamed' }

/**
 * Runs `fn` as bulk work: its database calls wait behind interactive ones (see WorkQueue).
 * For work nobody is waiting on a page for: large inserts from uploads and imports, upkeep.
 */
export function asBulk<T>(fn: () => Promise<T>): Promise<T> {
  return jobContext.run({ ...(jobContext.getStore() ?? UNNAMED), bulk: true }, fn)
}

/**
 * Runs `fn` with its database jobs named `key` (e.g. "rest GET public.documents"): the queue
 * learns how long each key's jobs hold the worker and lets the shorter go first. Name by what
 * a job runs, from a small set (a route, a relation, a function), never by data such as an id.
 */
export function withJobKey<T>(key: string, fn: () => T): T {
  return jobContext.run({ ...(jobContext.getStore() ?? UNNAMED), key }, fn)
}

/** Whether the caller is inside asBulk. */
export function isBulk(): boolean {
  return jobContext.getStore()?.bulk === true
}

/** The key the caller's jobs carry (see withJobKey). */
export function jobKey(): string {
  return (jobContext.getStore() ?? UNNAMED).key
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

/**
 * A job's work. It calls `handOff` once its last message to the worker is sent: the worker
 * runs what it is sent in order, so the next job may be sent now and start the moment this one
 * ends (see WorkQueue).
 */
export type Work<T> = (handOff: () => void) => Promise<T>

/** When a job was queued, when it began to hold the worker, and for how long it held it. */
export type Held = { queuedAt: number; at: number; holdMs: number }

/** `expectedMs`: its key's hold when it was queued, at least 1 ms (see WorkQueue). */
type Job = {
  run: Work<void>
  key: string
  queuedAt: number
  expectedMs: number
  onHeld: ((held: Held) => void) | undefined
}

/** Lanes of interactive jobs by expected hold: up to 2 ms, 2–4, 4–8, … 64–128, 128 and over. */
const LANES = 8

function laneOf(expectedMs: number): number {
  return Math.min(LANES - 1, Math.floor(Math.log2(expectedMs)))
}

/**
 * Orders the work for PGlite, which runs one statement (or holds one transaction) at a time.
 * One job runs at a time; when it ends, the next waiting interactive job goes first, so a
 * request's read waits at most for the job under way, never for a backlog of bulk inserts.
 *
 * Among interactive jobs the shortest expected goes first: a document list (about 1 ms of the
 * worker) need not wait behind every search (about 10 ms) queued before it. A job's expected
 * hold is what jobs of its key held lately (HoldEstimates). Jobs wait in lanes by expected
 * hold, each a power of two wide and first in, first out: the next job is the head of the
 * cheapest lane that has one, a pick of at most eight looks whatever the backlog, where
 * sorting every waiting job by its estimate would cost a heap per database call for an order
 * no better than the estimates (within a factor of two is all they promise). So that a stream
 * of short jobs can never starve a long one, a job that has waited more than `maxSlowdown`
 * times its expected hold (a search about 200 ms, a list 20) is overdue and goes first; among
 * overdue jobs, the one that has waited most for its size (a lane's head has waited longest
 * in it). A fixed bound (100 ms, then the oldest overdue job first) was tried and dropped: a
 * saturated worker keeps every job waiting past any bound short enough to matter, so the queue
 * was first in, first out again exactly when it counts (in bench:load under import, lists'
 * p95 stayed where it was). By slowdown, each kind waits about in proportion to its hold.
 *
 * Bulk work runs when no interactive job waits, and otherwise takes turns by time: after a
 * bulk job of d ms, interactive jobs alone get d × (1 − share) / share ms (at most
 * `maxBulkWaitMs`) before the next bulk job goes. Under constant interactive load an import
 * thus keeps about `share` of the worker (its throughput) while requests wait at most about
 * one bulk job, which is why bulk writes are kept short (chunk inserts of ~24,000
 * characters, one table per vacuum pass).
 *
 * The next job is chosen and sent as soon as the running one has handed off (sent its last
 * message), not when its answer is back: the worker then goes from one to the next without
 * waiting for this thread to see the answer and send again, which under load (this thread
 * busy with HTTP, both threads waiting for a core) idled it for 10–25% of its time. Only one
 * job is sent ahead, so the order is decided at most one job early. A job holds the worker
 * from when it starts or the job before it ends, whichever is later.
 */
export class WorkQueue {
  private readonly lanes: Job[][] = Array.from({ length: LANES }, () => [])
  private interactiveWaiting = 0
  private readonly bulk: Job[] = []
  private readonly holds = new HoldEstimates()
  /** Jobs started and not yet over: one, or two when the first has handed off. */
  private inFlight = 0
  private handedOff = 0
  /** When the last job ended: the one sent after it held the worker from then. */
  private lastEnded = 0
  /** A bulk job is in flight: the next bulk turn is known when it ends. */
  private bulkInFlight = false
  /** When the next bulk job may overtake waiting interactive ones. */
  private bulkDueAt = 0
  private readonly share: number
  private readonly maxBulkWaitMs: number
  private readonly maxSlowdown: number
  private readonly now: () => number

  constructor({
    share = 0.5,
    maxBulkWaitMs = 200,
    maxSlowdown = 20,
    now = () => performance.now(),
  } = {}) {
    this.share = share
    this.maxBulkWaitMs = maxBulkWaitMs
    this.maxSlowdown = maxSlowdown
    this.now = now
  }

  /**
   * Runs `work` when its turn comes; bulk when called inside asBulk, named by withJobKey.
   * `onHeld` is told, once it is over, when it held the worker (for LOCALBASE_DB_TRACE).
   */
  run<T>(work: Work<T>, onHeld?: (held: Held) => void): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const start = (handOff: () => void) =>
        Promise.resolve()
          .then(() => work(handOff))
          .then(resolve, reject)
      // A job that waits is bound to its caller's async context, not that of the job before it,
      // which starts it. One that finds the queue idle starts right here, in that context
      // already: binding would cost an async resource per database call for nothing.
      const run = this.inFlight > 0 ? AsyncResource.bind(start) : start
      const { bulk, key } = jobContext.getStore() ?? UNNAMED
      const expectedMs = Math.max(1, this.holds.expected(key))
      const job = { run, key, queuedAt: this.now(), expectedMs, onHeld }
      if (bulk) this.bulk.push(job)
      else {
        this.lanes[laneOf(expectedMs)]!.push(job)
        this.interactiveWaiting++
      }
      this.next()
    })
  }

  /** Starts the next job when the worker is free, or busy with a job that has handed off. */
  private next(): void {
    if (this.inFlight > this.handedOff || this.inFlight === 2) return
    const now = this.now()
    const bulkDue =
      this.bulk.length > 0 &&
      (this.interactiveWaiting === 0 || (!this.bulkInFlight && now >= this.bulkDueAt))
    const job = bulkDue ? this.bulk.shift() : this.nextInteractive(now)
    if (!job) return
    this.inFlight++
    if (bulkDue) this.bulkInFlight = true
    let handed = false
    const handOff = () => {
      if (handed) return
      handed = true
      this.handedOff++
      this.next()
    }
    void job.run(handOff).finally(() => {
      const ended = this.now()
      const at = Math.max(now, this.lastEnded)
      const held = ended - at
      this.lastEnded = ended
      this.inFlight--
      if (handed) this.handedOff--
      handed = true // a late handOff counts for nothing
      if (bulkDue) {
        this.bulkInFlight = false
        const interactiveTurn = (held * (1 - this.share)) / this.share
        this.bulkDueAt = ended + Math.min(interactiveTurn, this.maxBulkWaitMs)
      } else this.holds.record(job.key, held)
      job.onHeld?.({ queuedAt: job.queuedAt, at, holdMs: held })
      this.next()
    })
  }

  /** The overdue job that has waited most for its size, else the head of the cheapest lane. */
  private nextInteractive(now: number): Job | undefined {
    let cheapest: Job[] | undefined
    let overdue: Job[] | undefined
    let worst = this.maxSlowdown
    for (const lane of this.lanes) {
      const head = lane[0]
      if (!head) continue
      cheapest ??= lane
      const slowdown = (now - head.queuedAt) / head.expectedMs
      if (slowdown > worst) {
        worst = slowdown
        overdue = lane
      }
    }
    const lane = overdue ?? cheapest
    if (!lane) return undefined
    this.interactiveWaiting--
    return lane.shift()
  }
}
