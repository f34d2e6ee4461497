import { readFileSync } from 'node:fs'
import { availableParallelism } from 'node:os'
import type { ProcessFile } from '../packages/core/src/ingest/types.ts'
import type { JobRecord } from '../packages/localbase/src/db/pglite-trace.ts'
import { cpuSince, type ProcessCpu, processCpu } from './process-cpu.ts'

// bench:load's breakdown of one import: where its files' time went on the importer's side
// (waiting for extraction, each kind of request to the server), what the server's database
// worker did for it (queue wait and hold of its jobs), and how the machine's cores were
// shared meanwhile (this bench's own threads, localbase's, Deno's, and anything else running
// on the machine), so that an import slower under load can be told apart by cause.

type Timed = { count: number; ms: number; maxMs: number }

const add = (into: Map<string, Timed>, key: string, ms: number) => {
  const t = into.get(key) ?? { count: 0, ms: 0, maxMs: 0 }
  t.count++
  t.ms += ms
  t.maxMs = Math.max(t.maxMs, ms)
  into.set(key, t)
}

/** A request's kind: method and path with ids and object names left out. */
function requestKind(method: string, url: string): string {
  const path = new URL(url).pathname
  const storage = /^\/storage\/v1\/object\/[^/]+/.exec(path)
  return `${method} ${storage ? storage[0] : path}`
}

/** The importer's side: time in each kind of request, and waiting for extraction. */
export class ImportTimer {
  private requests = new Map<string, Timed>()
  private extraction = new Map<string, Timed>()

  /** A fetch for the importer's supabase-js client that times each request to its answer. */
  readonly fetch: typeof fetch = async (input, init) => {
    const request = new Request(input, init)
    const started = performance.now()
    try {
      const response = await fetch(request)
      // Timed to the whole answer, as the importer waits for it.
      const body = await response.arrayBuffer()
      const empty = [101, 204, 205, 304].includes(response.status)
      return new Response(empty ? null : body, response)
    } finally {
      add(this.requests, requestKind(request.method, request.url), performance.now() - started)
    }
  }

  /** `process` timed from the call (waiting for a free thread included) to its result. */
  process(process: ProcessFile): ProcessFile {
    return async (input, hooks) => {
      const started = performance.now()
      const processed = await process(input, hooks)
      add(this.extraction, 'waited for', performance.now() - started)
      add(this.extraction, 'in a thread', processed.extractMs + processed.chunkMs)
      return processed
    }
  }

  /** What was timed since the last take, and starts afresh. */
  take() {
    const round = ([key, t]: [string, Timed]) => ({
      kind: key,
      count: t.count,
      ms: Math.round(t.ms),
      maxMs: Math.round(t.maxMs),
    })
    const result = {
      extraction: [...this.extraction].map(round),
      requests: [...this.requests].map(round).sort((a, b) => b.ms - a.ms),
    }
    this.requests = new Map()
    this.extraction = new Map()
    return result
  }
}

/**
 * The database worker's jobs for the import: bulk jobs (chunk inserts, statistics) and the
 * interactive jobs that are not the clients' reads. The clients of bench:load only read (their
 * jobs are one-round-trip reads: rows, or search_with_settings), so every other job of the
 * phase is the import's, or upkeep after it (vacuum, analyze: counted apart).
 */
export function importJobs(jobs: JobRecord[]) {
  const upkeep = (job: JobRecord) => /^(vacuum|analyze)\b/i.test(job.sql)
  const clients = (job: JobRecord) =>
    job.kind === 'interactive' && job.calls === 1 && /^read |search_with_settings/.test(job.sql)
  const sum = (list: JobRecord[]) => {
    const waits = list.map((j) => j.waitMs).sort((a, b) => a - b)
    return {
      jobs: list.length,
      holdMs: Math.round(list.reduce((s, j) => s + j.holdMs, 0)),
      maxHoldMs: Math.round(Math.max(0, ...list.map((j) => j.holdMs))),
      waitMs: Math.round(waits.reduce((s, w) => s + w, 0)),
      waitP95Ms: Math.round(waits[Math.floor(0.95 * waits.length)] ?? 0),
    }
  }
  const mine = jobs.filter((j) => !upkeep(j) && !clients(j))
  return {
    bulk: sum(mine.filter((j) => j.kind === 'bulk')),
    interactive: sum(mine.filter((j) => j.kind === 'interactive')),
    upkeep: sum(jobs.filter(upkeep)),
    contendedBulkShare: contendedBulkShare(jobs),
  }
}

/**
 * Bulk jobs' share of the worker's hold while both kinds wanted it (a bulk job and an
 * interactive one each waiting or running): what the work queue's bulk share
 * (LOCALBASE_BULK_SHARE, 0.5) is meant to give bulk work under a full interactive queue.
 * Null when the two never met. Counted in whole milliseconds of the trace's timeline.
 */
export function contendedBulkShare(jobs: JobRecord[]): number | null {
  if (jobs.length === 0) return null
  const from = Math.floor(Math.min(...jobs.map((j) => j.at - j.waitMs)))
  const to = Math.ceil(Math.max(...jobs.map((j) => j.at + j.holdMs)))
  const span = to - from + 1
  // Difference arrays: jobs of each kind present (waiting or running), and which kind holds.
  const present = { bulk: new Int32Array(span + 1), interactive: new Int32Array(span + 1) }
  const holding = { bulk: new Int32Array(span + 1), interactive: new Int32Array(span + 1) }
  const mark = (into: Int32Array, start: number, end: number) => {
    into[Math.round(start) - from]! += 1
    into[Math.round(end) - from]! -= 1
  }
  for (const job of jobs) {
    mark(present[job.kind], job.at - job.waitMs, job.at + job.holdMs)
    mark(holding[job.kind], job.at, job.at + job.holdMs)
  }
  let bulk = 0
  let interactive = 0
  const count = { pb: 0, pi: 0, hb: 0, hi: 0 }
  for (let t = 0; t < span; t++) {
    count.pb += present.bulk[t]!
    count.pi += present.interactive[t]!
    count.hb += holding.bulk[t]!
    count.hi += holding.interactive[t]!
    if (count.pb === 0 || count.pi === 0) continue
    if (count.hb > 0) bulk++
    else if (count.hi > 0) interactive++
  }
  return bulk + interactive ? Number((bulk / (bulk + interactive)).toFixed(2)) : null
}

/** CPU ms of the whole machine (all cores, busy time) from /proc/stat. */
function machineBusyMs(): number {
  const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1)
  const [user, nice, system, , , irq, softirq, steal] = fields.map(Number)
  return (user! + nice! + system! + irq! + softirq! + steal!) * 10 // USER_HZ 100
}

export type CpuShare = {
  /** Wall time of the window, ms, and the machine's cores. */
  wallMs: number
  cores: number
  /** CPU ms in the window: this bench's extraction threads and its main thread (the clients, the importer's requests). */
  benchExtraction: number
  benchMain: number
  localbase: ProcessCpu
  /** Everything else on the machine. */
  other: number
}

/** Starts measuring how the cores are shared; the result's call ends the window. */
export function cpuShare(localbasePid: number): () => CpuShare {
  const started = performance.now()
  const bench0 = processCpu(process.pid)
  const localbase0 = processCpu(localbasePid)
  const machine0 = machineBusyMs()
  return () => {
    const bench = processCpu(process.pid)
    const localbase = processCpu(localbasePid)
    const machine = machineBusyMs() - machine0
    const part = cpuSince(localbase0, localbase)
    // The bench's Node worker threads are its extraction pool; its children are none.
    const benchExtraction = bench.worker - bench0.worker
    // Its V8 and libuv helpers (JIT, GC) serve the same work as its main thread.
    const benchMain = bench.main - bench0.main + bench.helpers - bench0.helpers
    const known =
      benchExtraction + benchMain + part.worker + part.main + part.helpers + part.functions
    return {
      wallMs: Math.round(performance.now() - started),
      cores: availableParallelism(),
      benchExtraction,
      benchMain,
      localbase: part,
      other: Math.max(0, machine - known),
    }
  }
}

export type ImportBreakdown = {
  pages: number
  lanes: number
  wallMs: number
  importer: ReturnType<ImportTimer['take']>
  jobs: ReturnType<typeof importJobs>
  cpu: CpuShare
}

/** A few lines: per page, where the import's lanes spent their time and who used the cores. */
export function formatBreakdown(name: string, b: ImportBreakdown): string {
  const perPage = (ms: number) => (ms / b.pages).toFixed(2)
  const laneMs = b.lanes * b.wallMs
  const waited = b.importer.extraction.find((e) => e.kind === 'waited for')?.ms ?? 0
  const inThread = b.importer.extraction.find((e) => e.kind === 'in a thread')?.ms ?? 0
  const requestMs = b.importer.requests.reduce((s, r) => s + r.ms, 0)
  const share = (ms: number) => `${Math.round((100 * ms) / laneMs)}%`
  const requests = b.importer.requests
    .slice(0, 6)
    .map((r) => `${r.kind} ${r.count}x ${perPage(r.ms)}`)
    .join(', ')
  const { bulk, interactive, upkeep } = b.jobs
  const c = b.cpu
  const cores = (ms: number) => (ms / c.wallMs).toFixed(2)
  return (
    `import ${name}: ${b.pages} pages in ${(b.wallMs / 1000).toFixed(1)} s, ${b.lanes} lanes; per page (ms of lane time): ` +
    `extraction ${perPage(waited)} (${share(waited)}; ${perPage(inThread)} of it in a thread), ` +
    `requests ${perPage(requestMs)} (${share(requestMs)}; progress writes, PATCH documents, may go beside the rest)\n` +
    `  requests per page: ${requests}\n` +
    `  database jobs per page: bulk ${bulk.jobs}x wait ${perPage(bulk.waitMs)} hold ${perPage(bulk.holdMs)} (wait p95 ${bulk.waitP95Ms} ms, max hold ${bulk.maxHoldMs} ms); ` +
    `interactive ${interactive.jobs}x wait ${perPage(interactive.waitMs)} hold ${perPage(interactive.holdMs)} (max hold ${interactive.maxHoldMs} ms); upkeep ${upkeep.jobs}x hold ${upkeep.holdMs} ms; ` +
    `bulk's share of the worker while interactive jobs waited too ${b.jobs.contendedBulkShare ?? '-'}\n` +
    `  cores in use (of ${c.cores}): bench extraction ${cores(c.benchExtraction)}, bench main ${cores(c.benchMain)}, ` +
    `localbase worker ${cores(c.localbase.worker)}, main ${cores(c.localbase.main)}, helpers ${cores(c.localbase.helpers)}, Deno ${cores(c.localbase.functions)}, other processes ${cores(c.other)}`
  )
}
