// What one request of each bench:load kind costs, measured one request at a time on a quiet
// server (a library of --files filings): database worker jobs, round trips into the worker
// and statements per request (counts, which do not move with a shared machine's noise), the
// worker's hold per request, and CPU per request in localbase's main thread (HTTP, gateway,
// REST), its database worker thread, V8's and libuv's helper threads (JIT compilation and GC
// for both threads; mostly warm-up, see process-cpu.ts) and the Edge Functions' Deno process.
// --warm sets how many requests of each kind run first (plans, prepared statements, JIT).
// With --cpu-prof DIR, localbase runs under `node --cpu-prof` and each kind's top functions by
// self time (main thread and database worker, outside the import) are printed too.
// Run: node bench/load-kinds.ts [--files 4] [--requests 200] [--warm 20]
//   [--kinds list,search,conversation] [--cpu-prof DIR] (last line: JSON)
import { mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { availableParallelism, tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { runImport } from '../scripts/import/run-import.ts'
import { walk } from '../scripts/import/walk.ts'
import { WorkerPool } from '../scripts/import/worker-pool.ts'
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
import { readTrace } from './load-trace.ts'
import { cpuSince, processCpu as cpu } from './process-cpu.ts'
import { monotonicMicros, profileTop, type Window } from './cpu-profile.ts'

const { values } = parseArgs({
  options: {
    files: { type: 'string', default: '4' },
    requests: { type: 'string', default: '200' },
    warm: { type: 'string', default: '20' },
    kinds: { type: 'string', default: KINDS.join(',') },
    'cpu-prof': { type: 'string' },
  },
})
const kinds = values.kinds.split(',') as Kind[]
const perKind = Number(values.requests)

const { files: allFiles } = await walk(join(root, '../shared/data/financebench-pdfs'))
const files = allFiles.slice(0, Number(values.files))
const threads = Math.max(1, Math.min(availableParallelism(), files.length))
const pool = new WorkerPool(threads)
const port = await freePort()
const url = `http://127.0.0.1:${port}`
const dataDir = mkdtempSync(join(tmpdir(), 'sourcebook-bench-kinds-'))
const traceDir = mkdtempSync(join(tmpdir(), 'sourcebook-bench-kinds-trace-'))
const trace = join(traceDir, 'jobs.jsonl')
const profileDir = values['cpu-prof']
const node = profileDir ? ['--cpu-prof', '--cpu-prof-dir', profileDir] : []
const localbase = await startLocalbase(port, dataDir, trace, node)
const windows: Partial<Record<Kind | 'import', Window>> = {}
let pages!: number // set by the import, which runs first
const settle = () => new Promise((resolve) => setTimeout(resolve, 1000)) // the trace's flush
try {
  const setup = await signUpMember(url)
  const library = await setup.newWorkspace('Library')
  const importFrom = monotonicMicros()
  const importCpu = cpu(localbase.pid!)
  const imported = await runImport(setup.member, {
    workspaceId: library,
    files,
    process: pool.process,
    concurrency: threads * 2,
  })
  if (imported.failures.length > 0) throw new Error(JSON.stringify(imported.failures))
  pages = imported.pages
  const imports = cpuSince(importCpu, cpu(localbase.pid!))
  windows.import = { from: importFrom, to: monotonicMicros() }
  const perPage = (ms: number) => Number((ms / imported.pages).toFixed(2))
  const importPerPage = {
    workerCpuMs: perPage(imports.worker),
    mainCpuMs: perPage(imports.main),
    helpersCpuMs: perPage(imports.helpers),
    functionsCpuMs: perPage(imports.functions),
  }
  const conversationIds = await seedConversations(setup, library)
  const client = requests(memberClient(url, setup.token), library, conversationIds)

  const result: Partial<Record<Kind, Record<string, number>>> = {}
  for (const kind of kinds) {
    for (let i = 0; i < Number(values.warm); i++) await client[kind]()
    await settle()
    rmSync(trace, { force: true })
    const before = cpu(localbase.pid!)
    const from = monotonicMicros()
    const walls: number[] = []
    for (let i = 0; i < perKind; i++) {
      const t0 = performance.now()
      await client[kind]()
      walls.push(performance.now() - t0)
    }
    const after = cpu(localbase.pid!)
    windows[kind] = { from, to: monotonicMicros() }
    await settle()
    renameSync(trace, join(traceDir, `${kind}.jsonl`))
    const jobs = readTrace(join(traceDir, `${kind}.jsonl`))
    const per = (n: number) => Number((n / perKind).toFixed(2))
    const sum = (key: 'holdMs' | 'calls' | 'statements') =>
      jobs.reduce((total, job) => total + job[key], 0)
    walls.sort((a, b) => a - b)
    result[kind] = {
      wallP50Ms: Number(walls[Math.floor(walls.length / 2)]!.toFixed(1)),
      workerJobs: per(jobs.length),
      workerCalls: per(sum('calls')),
      statements: per(sum('statements')),
      workerHoldMs: per(sum('holdMs')),
      workerCpuMs: per(after.worker - before.worker),
      mainCpuMs: per(after.main - before.main),
      helpersCpuMs: per(after.helpers - before.helpers),
      functionsCpuMs: per(after.functions - before.functions),
    }
  }
  console.log(`${perKind} requests of each kind, one at a time, ${imported.pages} pages indexed`)
  for (const kind of kinds) {
    const r = result[kind]!
    console.log(
      `  ${kind.padEnd(12)} p50 ${r.wallP50Ms} ms; worker: ${r.workerJobs} jobs, ${r.workerCalls} round trips, ` +
        `${r.statements} statements, held ${r.workerHoldMs} ms (CPU ${r.workerCpuMs} ms); ` +
        `CPU main thread ${r.mainCpuMs} ms, helpers ${r.helpersCpuMs} ms, Deno ${r.functionsCpuMs} ms`,
    )
  }
  console.log(
    `  import       CPU per page: worker ${importPerPage.workerCpuMs} ms, ` +
      `main thread ${importPerPage.mainCpuMs} ms, helpers ${importPerPage.helpersCpuMs} ms, ` +
      `Deno ${importPerPage.functionsCpuMs} ms`,
  )
  const json = { bench: 'load-kinds', files: files.length, perKind, kinds: result, importPerPage }
  console.log(JSON.stringify(json))
} finally {
  await pool.close()
  localbase.kill()
  await new Promise((resolve) => localbase.once('exit', resolve))
  rmSync(dataDir, { recursive: true, force: true })
  rmSync(traceDir, { recursive: true, force: true })
}
// The profiles are written as localbase exits.
if (profileDir) {
  // Kept beside the profiles for a closer look (inclusive times, other windows).
  writeFileSync(join(profileDir, 'windows.json'), JSON.stringify(windows))
  for (const [name, count, unit] of [
    ...kinds.map((kind) => [kind, perKind, 'request'] as const),
    ['import', pages, 'page'] as const,
  ]) {
    for (const thread of profileTop(profileDir, windows[name]!)) {
      const each = (ms: number) => (ms / count).toFixed(3)
      console.log(`${name} ${thread.file}: ${each(thread.sampledMs)} ms sampled per ${unit}`)
      for (const { name, ms } of thread.top) console.log(`  ${each(ms).padStart(7)} ms  ${name}`)
    }
  }
}
