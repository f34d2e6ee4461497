/**
 * How long each kind of job (by its key, see withJobKey) typically holds the database worker: an
 * exponentially weighted mean of its measured holds, a fifth for the newest, so a key follows
 * a change in its cost (a library that grew) within a few dozen jobs while one slow outlier (a
 * pause for garbage collection) moves it little. A key never measured is expected to be short
 * (0 ms): it runs once ahead of longer ones, is measured, and from then on waits its turn by
 * what it costs. Starting from the median of known keys would need them sorted at each new key
 * for the same outcome after one run.
 */
export class HoldEstimates {
  private readonly means = new Map<string, number>()

  /** The expected hold of `key`'s next job, ms. */
  expected(key: string): number {
    return this.means.get(key) ?? 0
  }

  record(key: string, holdMs: number): void {
    const mean = this.means.get(key)
    if (mean !== undefined) this.means.set(key, mean + WEIGHT * (holdMs - mean))
    // Keys name routes, relations and functions, so there are a few hundred at most; the cap
    // keeps memory bounded should a caller ever name jobs by something unbounded.
    else if (this.means.size < MAX_KEYS) this.means.set(key, holdMs)
  }
}

const WEIGHT = 0.2
const MAX_KEYS = 4096
