import { existsSync, readFileSync } from 'node:fs'
import type { JobRecord } from '../packages/localbase/src/db/pglite-trace.ts'

// bench:load's view of PGlite's worker (LOCALBASE_DB_TRACE): how long jobs held it, which
// statements held it longest, and how long interactive jobs waited for it.

const percentile = (sorted: number[], p: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]! : NaN

/** The jobs a trace file holds (none when the engine is not PGlite). */
export function readTrace(path: string): JobRecord[] {
  if (!existsSync(path)) return []
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as JobRecord)
}

export type TraceSummary = {
  jobs: number
  /** The longest single hold of the worker, ms. */
  maxHoldMs: number
  holdP95Ms: { interactive: number; bulk: number }
  /** How long interactive jobs waited for the worker, ms. */
  interactiveWaitMs: { p50: number; p95: number; max: number }
  /** Bulk jobs' share of the worker's busy time. */
  bulkShare: number
  /** Interactive jobs' mean round trips into the worker and statements. */
  interactivePerJob: { calls: number; statements: number }
  /** Statements (by text, numbers folded) by total hold time. */
  top: { sql: string; kind: JobRecord['kind']; count: number; totalMs: number; maxMs: number }[]
  /**
   * Interactive jobs by key (what the queue orders them by, see work-queue.ts), the most
   * frequent first: their mean hold and how long they waited, ms.
   */
  keys: { key: string; count: number; holdMs: number; waitP50Ms: number; waitP95Ms: number }[]
}

function byKey(jobs: JobRecord[], top: number): TraceSummary['keys'] {
  const groups = new Map<string, JobRecord[]>()
  for (const job of jobs) {
    if (job.kind !== 'interactive') continue
    const group = groups.get(job.key) ?? []
    group.push(job)
    groups.set(job.key, group)
  }
  return [...groups.entries()]
    .sort((a, b) => b[1].length - a[1].length)
    .slice(0, top)
    .map(([key, group]) => {
      const waits = group.map((job) => job.waitMs).sort((a, b) => a - b)
      const hold = group.reduce((sum, job) => sum + job.holdMs, 0) / group.length
      return {
        key,
        count: group.length,
        holdMs: Math.round(hold * 10) / 10,
        waitP50Ms: Math.round(percentile(waits, 0.5)),
        waitP95Ms: Math.round(percentile(waits, 0.95)),
      }
    })
}

function perJob(jobs: JobRecord[]): TraceSummary['interactivePerJob'] {
  const mean = (key: 'calls' | 'statements') =>
    jobs.length
      ? Number((jobs.reduce((sum, job) => sum + job[key], 0) / jobs.length).toFixed(2))
      : 0
  return { calls: mean('calls'), statements: mean('statements') }
}

export function summarizeTrace(jobs: JobRecord[], top = 8): TraceSummary {
  const round = (ms: number) => Math.round(ms * 10) / 10
  const sorted = (kind: JobRecord['kind'], key: 'holdMs' | 'waitMs') =>
    jobs
      .filter((job) => job.kind === kind)
      .map((job) => job[key])
      .sort((a, b) => a - b)
  const waits = sorted('interactive', 'waitMs')
  const busy = jobs.reduce((sum, job) => sum + job.holdMs, 0)
  const bulkBusy = jobs.filter((j) => j.kind === 'bulk').reduce((sum, j) => sum + j.holdMs, 0)
  const groups = new Map<string, TraceSummary['top'][number]>()
  for (const job of jobs) {
    const sql = job.sql.replace(/\b\d+\b/g, 'N')
    const group = groups.get(`${job.kind} ${sql}`) ?? {
      sql,
      kind: job.kind,
      count: 0,
      totalMs: 0,
      maxMs: 0,
    }
    group.count++
    group.totalMs += job.holdMs
    group.maxMs = Math.max(group.maxMs, job.holdMs)
    groups.set(`${job.kind} ${sql}`, group)
  }
  return {
    jobs: jobs.length,
    maxHoldMs: round(Math.max(0, ...jobs.map((job) => job.holdMs))),
    holdP95Ms: {
      interactive: round(percentile(sorted('interactive', 'holdMs'), 0.95)),
      bulk: round(percentile(sorted('bulk', 'holdMs'), 0.95)),
    },
    interactiveWaitMs: {
      p50: round(percentile(waits, 0.5)),
      p95: round(percentile(waits, 0.95)),
      max: round(waits.at(-1) ?? NaN),
    },
    bulkShare: busy ? Number((bulkBusy / busy).toFixed(2)) : 0,
    interactivePerJob: perJob(jobs.filter((job) => job.kind === 'interactive')),
    top: [...groups.values()]
      .sort((a, b) => b.totalMs - a.totalMs)
      .slice(0, top)
      .map((g) => ({ ...g, totalMs: Math.round(g.totalMs), maxMs: round(g.maxMs) })),
    keys: byKey(jobs, top),
  }
}

/** The summary as lines for the bench's output. */
export function formatTrace(name: string, s: TraceSummary): string {
  return (
    `worker ${name}: ${s.jobs} jobs, max hold ${s.maxHoldMs} ms, hold p95 interactive ${s.holdP95Ms.interactive} ms / bulk ${s.holdP95Ms.bulk} ms, ` +
    `bulk share ${s.bulkShare}; interactive wait p50 ${s.interactiveWaitMs.p50} ms p95 ${s.interactiveWaitMs.p95} ms max ${s.interactiveWaitMs.max} ms; ` +
    `interactive job: ${s.interactivePerJob.calls} round trips, ${s.interactivePerJob.statements} statements\n` +
    s.top
      .map(
        (g) =>
          `  ${String(g.totalMs).padStart(7)} ms total  max ${String(g.maxMs).padStart(7)} ms  ${String(g.count).padStart(6)}x  ${g.kind.padEnd(11)} ${g.sql}`,
      )
      .join('\n') +
    '\n  interactive jobs by key:\n' +
    s.keys
      .map(
        (k) =>
          `  ${String(k.count).padStart(6)}x  hold ${String(k.holdMs).padStart(6)} ms  wait p50 ${String(k.waitP50Ms).padStart(5)} ms  p95 ${String(k.waitP95Ms).padStart(5)} ms  ${k.key}`,
      )
      .join('\n')
  )
}
