// A team's server under load: a fresh localbase in a child process, N clients through
// supabase-js listing the library, searching (the `search` function) and opening
// conversations, first idle, then while the importer's code path ingests
// ../shared/data/financebench-pdfs into another workspace. Prints throughput, errors and
// p50/p95/max per request kind for both phases with the load/idle ratio, and import pages/s
// under load against an idle import of the same files.
// Targets (issue #16): search p95 under load <= 250 ms and <= 5x idle; list p95 <= 100 ms;
// 0 errors; import under load >= 0.7x idle.
// Run: node bench/load.ts [--clients 50] [--seconds 20] [--files 12] [--think-ms 100]
//   [--db-url postgresql://superuser@host/db: PGlite and that Postgres side by side]
//   (last line: JSON)
import { mkdtempSync, renameSync, rmSync } from 'node:fs'
import { availableParallelism, tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { type ImportTotals, runImport } from '../scripts/import/run-import.ts'
import { walk } from '../scripts/import/walk.ts'
import {
  freePort,
  KINDS,
  type Kind,
  memberClient,
  requests,
  root,
  seedConversations,
  signUpMember,
  startLocalbase,
} from './load-setup.ts'
import {
  cpuShare,
  formatBreakdown,
  type ImportBreakdown,
  ImportTimer,
  importJobs,
} from './load-import.ts'
import { formatTrace, readTrace, summarizeTrace } from './load-trace.ts'
import { cpuSince, type ProcessCpu, processCpu } from './process-cpu.ts'
import { sideBySide } from './side-by-side.ts'
import { WorkerPool } from '../scripts/import/worker-pool.ts'

const { values } = parseArgs({
  options: {
    clients: { type: 'string', default: '50' },
    seconds: { type: 'string', default: '20' },
    files: { type: 'string' },
    'think-ms': { type: 'string', default: '100' },
    'db-url': { type: 'string' },
  },
})
if (values['db-url']) {
  // The same run on PGlite, then on a scratch database of that server (localbase inherits
  // DATABASE_URL), summaries side by side.
  const args = ['--clients', values.clients!, '--seconds', values.seconds!]
  args.push('--think-ms', values['think-ms']!, ...(values.files ? ['--files', values.files] : []))
  await sideBySide(new URL(import.meta.url).pathname, args, values['db-url'])
  process.exit(0)
}
const clientCount = Number(values.clients)
const idleSeconds = Number(values.seconds)
const thinkMs = Number(values['think-ms'])

const folder = join(root, '../shared/data/financebench-pdfs')

type Sample = { kind: Kind; ms: number; ok: boolean }

// The mix: as many searches as lists, conversations opened half as often.
const MIX: Kind[] = ['list', 'list', 'search', 'search', 'conversation']

/** N closed-loop clients (each waits `thinkMs` ± half between requests) until `until` resolves. */
async function drive(
  clients: ReturnType<typeof requests>[],
  until: Promise<unknown>,
): Promise<{ samples: Sample[]; ms: number; errors: string[] }> {
  const samples: Sample[] = []
  const errors: string[] = []
  let done = false
  void until.finally(() => (done = true))
  const started = performance.now()
  await Promise.all(
    clients.map(async (client, i) => {
      let turn = i
      while (!done) {
        const kind = MIX[turn++ % MIX.length]!
        const t0 = performance.now()
        try {
          await client[kind]()
          samples.push({ kind, ms: performance.now() - t0, ok: true })
        } catch (error) {
          samples.push({ kind, ms: performance.now() - t0, ok: false })
          if (errors.length < 5) errors.push(`${kind}: ${(error as Error).message}`)
        }
        await new Promise((resolve) => setTimeout(resolve, thinkMs * (0.5 + Math.random())))
      }
    }),
  )
  return { samples, ms: performance.now() - started, errors }
}

const per = (cpu: ProcessCpu, n: number): ProcessCpu => ({
  worker: Number((cpu.worker / n).toFixed(2)),
  main: Number((cpu.main / n).toFixed(2)),
  helpers: Number((cpu.helpers / n).toFixed(2)),
  functions: Number((cpu.functions / n).toFixed(2)),
})

/** The import's part of the CPU used under load, taking a page to cost what it did idle. */
function importShare(load: ProcessCpu, perPage: ProcessCpu, pages: number): ProcessCpu {
  const share = (part: keyof ProcessCpu) =>
    load[part] > 0 ? Number(Math.min(1, (perPage[part] * pages) / load[part]).toFixed(2)) : 0
  return {
    worker: share('worker'),
    main: share('main'),
    helpers: share('helpers'),
    functions: share('functions'),
  }
}

const cpuLine = ({ worker, main, helpers, functions }: ProcessCpu) =>
  `worker ${worker} ms, main thread ${main} ms, helpers ${helpers} ms, Deno ${functions} ms`

const percentile = (sorted: number[], p: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]! : NaN

function summarize(samples: Sample[], ms: number) {
  const kinds = Object.fromEntries(
    KINDS.map((kind) => {
      const mine = samples.filter((s) => s.kind === kind)
      const sorted = mine.map((s) => s.ms).sort((a, b) => a - b)
      return [
        kind,
        {
          requests: mine.length,
          errors: mine.filter((s) => !s.ok).length,
          p50: Math.round(percentile(sorted, 0.5)),
          p95: Math.round(percentile(sorted, 0.95)),
          max: Math.round(sorted.at(-1) ?? NaN),
        },
      ]
    }),
  ) as Record<Kind, { requests: number; errors: number; p50: number; p95: number; max: number }>
  return {
    requestsPerSec: Number(((samples.length * 1000) / ms).toFixed(1)),
    errors: samples.filter((s) => !s.ok).length,
    kinds,
  }
}

const { files: allFiles } = await walk(folder)
const files = values.files ? allFiles.slice(0, Number(values.files)) : allFiles
const threads = Math.max(1, Math.min(availableParallelism(), files.length))
const pool = new WorkerPool(threads)

const port = await freePort()
const url = `http://127.0.0.1:${port}`
const dataDir = mkdtempSync(join(tmpdir(), 'sourcebook-bench-load-'))
// PGlite's jobs (see pglite-trace.ts), one file per phase: the engine appends to this path,
// and each phase's lines are moved aside as the next phase begins.
const traceDir = mkdtempSync(join(tmpdir(), 'sourcebook-bench-trace-'))
const trace = join(traceDir, 'jobs.jsonl')
const tracePhase = (name: string) => {
  try {
    renameSync(trace, join(traceDir, `${name}.jsonl`))
  } catch {
    // Nothing traced yet (or a Postgres run): that phase is empty.
  }
  return join(traceDir, `${name}.jsonl`)
}
const localbase = await startLocalbase(port, dataDir, trace)
try {
  const setup = await signUpMember(url)
  const { newWorkspace } = setup
  // The importer's requests and extraction are timed for the import's breakdown.
  const timer = new ImportTimer()
  const importer = memberClient(url, setup.token, timer.fetch)
  const lanes = threads * 2
  const library = await newWorkspace('Library under load')
  const target = await newWorkspace('Import under load')

  const importInto = async (workspaceId: string, label: string): Promise<ImportTotals> => {
    const totals = await runImport(importer, {
      workspaceId,
      files,
      process: timer.process(pool.process),
      concurrency: lanes,
      onFile: (t, file) =>
        console.log(`[${label} ${t.done}/${t.total}] ${t.pages} pages  ${file.name}`),
    })
    if (totals.failures.length > 0) throw new Error(JSON.stringify(totals.failures))
    return totals
  }

  // The idle import fills the library the clients read.
  let started = performance.now()
  let cpuAt = processCpu(localbase.pid!)
  let shared = cpuShare(localbase.pid!)
  const idleImport = await importInto(library, 'idle import')
  const idleImportMs = performance.now() - started
  const idleImportCpu = cpuSince(cpuAt, processCpu(localbase.pid!))
  const idleImportShare = shared()
  const idleImportTimes = timer.take()
  await new Promise((resolve) => setTimeout(resolve, 500)) // the trace's flush
  const idleImportJobs = importJobs(readTrace(tracePhase('import')))

  const conversationIds = await seedConversations(setup, library)

  // Every client has its own supabase-js (own connections) with the member's token.
  const clients = Array.from({ length: clientCount }, () =>
    requests(memberClient(url, setup.token), library, conversationIds),
  )

  tracePhase('setup')
  console.log(`idle: ${clientCount} clients for ${idleSeconds} s`)
  cpuAt = processCpu(localbase.pid!)
  const idleRun = await drive(
    clients,
    new Promise((resolve) => setTimeout(resolve, idleSeconds * 1000)),
  )
  const idleCpu = cpuSince(cpuAt, processCpu(localbase.pid!))
  const idleTrace = tracePhase('idle')
  console.log(`load: ${clientCount} clients while importing ${files.length} files`)
  started = performance.now()
  cpuAt = processCpu(localbase.pid!)
  shared = cpuShare(localbase.pid!)
  let loadImportMs = 0
  let loadImportShare!: ReturnType<typeof shared>
  const loadImportDone = importInto(target, 'import under load').then((totals) => {
    loadImportMs = performance.now() - started
    loadImportShare = shared()
    return totals
  })
  const loadRun = await drive(clients, loadImportDone)
  const loadImport = await loadImportDone
  const loadCpu = cpuSince(cpuAt, processCpu(localbase.pid!))
  // The engine writes its trace at most 250 ms late.
  await new Promise((resolve) => setTimeout(resolve, 1500))
  const workerIdle = summarizeTrace(readTrace(idleTrace))
  const loadJobs = readTrace(tracePhase('load'))
  const workerLoad = summarizeTrace(loadJobs)
  const breakdown = (
    totals: ImportTotals,
    wallMs: number,
    importer: ImportBreakdown['importer'],
    jobs: ImportBreakdown['jobs'],
    cpu: ImportBreakdown['cpu'],
  ): ImportBreakdown => ({
    pages: totals.pages,
    lanes,
    wallMs: Math.round(wallMs),
    importer,
    jobs,
    cpu,
  })
  const importBreakdown = {
    idle: breakdown(idleImport, idleImportMs, idleImportTimes, idleImportJobs, idleImportShare),
    load: breakdown(loadImport, loadImportMs, timer.take(), importJobs(loadJobs), loadImportShare),
  }

  const idle = summarize(idleRun.samples, idleRun.ms)
  const load = summarize(loadRun.samples, loadRun.ms)
  const pagesPerSec = (pages: number, ms: number) => Number(((pages * 1000) / ms).toFixed(1))
  const result = {
    bench: 'load',
    clients: clientCount,
    thinkMs,
    files: files.length,
    pages: idleImport.pages,
    idle,
    load,
    p95Ratio: Object.fromEntries(
      KINDS.map((k) => [k, Number((load.kinds[k].p95 / idle.kinds[k].p95).toFixed(2))]),
    ) as Record<Kind, number>,
    importIdlePagesPerSec: pagesPerSec(idleImport.pages, idleImportMs),
    importUnderLoadPagesPerSec: pagesPerSec(loadImport.pages, loadImportMs),
    errorSamples: [...idleRun.errors, ...loadRun.errors],
    // Where the import's time went, idle and under load (see load-import.ts).
    importBreakdown,
    worker: { idle: workerIdle, load: workerLoad },
    // CPU ms of localbase's database worker, main thread and Deno, per request idle, per page
    // of the idle import, and in all under load with the import's estimated part of it.
    cpu: {
      idlePerRequest: per(idleCpu, idleRun.samples.length),
      idleImportPerPage: per(idleImportCpu, idleImport.pages),
      load: loadCpu,
      loadImportShare: importShare(loadCpu, per(idleImportCpu, idleImport.pages), loadImport.pages),
    },
  }
  const importRatio = result.importUnderLoadPagesPerSec / result.importIdlePagesPerSec
  const line = (name: string, s: typeof idle) =>
    `${name}: ${s.requestsPerSec} requests/s, ${s.errors} errors\n` +
    KINDS.map((k) => {
      const r = s.kinds[k]
      return `  ${k.padEnd(12)} ${String(r.requests).padStart(6)} requests  p50 ${r.p50} ms  p95 ${r.p95} ms  max ${r.max} ms  (${r.errors} errors)`
    }).join('\n')
  const target95 = (ok: boolean) => (ok ? 'met' : 'MISSED')
  if (workerLoad.jobs > 0)
    console.log(`${formatTrace('idle', workerIdle)}\n${formatTrace('under load', workerLoad)}`)
  console.log(
    `${formatBreakdown('idle', importBreakdown.idle)}\n${formatBreakdown('under load', importBreakdown.load)}`,
  )
  console.log(
    `${line('idle', idle)}\n${line('under load', load)}\n` +
      `p95 load/idle: list ${result.p95Ratio.list}x, search ${result.p95Ratio.search}x, conversation ${result.p95Ratio.conversation}x\n` +
      `import: idle ${result.importIdlePagesPerSec} pages/s, under load ${result.importUnderLoadPagesPerSec} pages/s (${importRatio.toFixed(2)}x)\n` +
      `CPU per request idle: ${cpuLine(result.cpu.idlePerRequest)}; per page imported idle: ${cpuLine(result.cpu.idleImportPerPage)}\n` +
      `CPU under load: ${cpuLine(result.cpu.load)}; the import's part: worker ${result.cpu.loadImportShare.worker}, main thread ${result.cpu.loadImportShare.main}, Deno ${result.cpu.loadImportShare.functions}\n` +
      `targets: search p95 <= 250 ms ${target95(load.kinds.search.p95 <= 250)}, <= 5x idle ${target95(result.p95Ratio.search <= 5)}; ` +
      `list p95 <= 100 ms ${target95(load.kinds.list.p95 <= 100)}; 0 errors ${target95(idle.errors + load.errors === 0)}; ` +
      `import >= 0.7x idle ${target95(importRatio >= 0.7)}` +
      (result.errorSamples.length ? `\nerrors: ${result.errorSamples.join('\n  ')}` : ''),
  )
  console.log(JSON.stringify(result))
} finally {
  await pool.close()
  localbase.kill()
  await new Promise((resolve) => localbase.once('exit', resolve))
  rmSync(dataDir, { recursive: true, force: true })
  rmSync(traceDir, { recursive: true, force: true })
}
