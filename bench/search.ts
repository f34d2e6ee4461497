// Search latency at scale: BENCH_CHUNKS (default 100,000) chunks, queried one at a time
// (the first BENCH_QUERIES, default 300): through the `search` Edge Function and through the
// plain search_chunks RPC (both HTTP + auth + RLS via supabase-js), next to the same SQL run
// directly on PGlite in the same request context. Two corpora:
// - `scifact` (default): one-chunk documents, SciFact abstracts and FinanceBench filing chunks
//   repeated with words dropped at random, queried with SciFact's test claims;
// - `library`: the 39 development filings as long documents with their detected signals,
//   copied (words dropped at random) until there are enough chunks, queried with the
//   FinanceBench development questions in turn: what the document score costs.
// After the load the server has work of its own, a one-off: the realtime change feed takes the
// change each inserted document queued off realtime.changes (some 200 statements of 500 rows at
// 100,000 documents), and upkeep vacuums and analyzes the tables the load filled (see
// packages/localbase/src/upkeep/vacuum.ts). Each of their statements holds the database while a
// search waits. The queries are timed while that runs (`while settling`, cycling through them
// until both are done), and then, the database settled, all of them: the summary's p50/p95 are
// the settled ones, what a library that has sat for a minute answers in.
// The SQL path's CPU time (this process's, which runs the database) is reported beside its
// wall time: on a shared machine the wall time also holds the time others' processes took.
// Prints a summary and a final JSON line.
// Run: node bench/search.ts [--corpus scifact|library] [--dataset ../shared/data/scifact]
//      [--db-url postgresql://superuser@host/db: PGlite and that Postgres side by side]
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { percentile } from '../packages/core/src/retrieval/metrics.ts'
import { type Localbase, startLocalbase } from '../packages/localbase/src/index.ts'
import { loadBeir } from '../scripts/eval/beir.ts'
import { signInConfirmedUser } from '../scripts/eval/confirmed-user.ts'
import { readQuestions } from '../scripts/eval/library/questions.ts'
import { loadLibrary, loadPassages, readLibrary, readPassages } from './search-corpus.ts'
import { sideBySide } from './side-by-side.ts'
import { drainChanges, repeatUntil, settleUpkeep } from './upkeep-settle.ts'

const CHUNKS = Number(process.env.BENCH_CHUNKS ?? 100_000)
const QUERIES = Number(process.env.BENCH_QUERIES ?? 300)
const workdir = new URL('..', import.meta.url).pathname
const data = join(workdir, '../shared/data')
const { values } = parseArgs({
  options: {
    corpus: { type: 'string', default: 'scifact' },
    dataset: { type: 'string', default: join(data, 'scifact') },
    'db-url': { type: 'string' },
  },
})
if (values['db-url']) {
  const args = ['--corpus', values.corpus!, '--dataset', values.dataset!]
  await sideBySide(new URL(import.meta.url).pathname, args, values['db-url'])
  process.exit(0)
}
if (values.corpus !== 'scifact' && values.corpus !== 'library') {
  console.error(`--corpus is scifact or library, not ${values.corpus}`)
  process.exit(2)
}

type Load = (lb: Localbase, workspaceId: string, progress: (done: number) => void) => Promise<void>

/** The corpus's loader and its queries, read before the stack starts. */
async function readCorpus(): Promise<{ load: Load; queries: string[] }> {
  if (values.corpus === 'library') {
    const documents = await readLibrary(
      ['financebench-pdfs', 'financebench-distractors'].map((d) => join(data, d)),
    )
    const questions = readQuestions(join(data, 'financebench-dev/questions.jsonl'))
    return {
      load: (lb, workspaceId, progress) =>
        loadLibrary(lb, workspaceId, documents, CHUNKS, progress),
      queries: Array.from({ length: QUERIES }, (_, i) => questions[i % questions.length]!.question),
    }
  }
  const dataset = loadBeir(resolve(values.dataset), 'test')
  const passages = await readPassages(dataset.corpus, join(data, 'financebench-pdfs'))
  return {
    load: (lb, workspaceId, progress) => loadPassages(lb, workspaceId, passages, CHUNKS, progress),
    queries: dataset.queries.slice(0, QUERIES).map((q) => q.text),
  }
}
const { load, queries } = await readCorpus()

const dataDir = mkdtempSync(join(tmpdir(), 'sourcebook-bench-search-'))
const lb = await startLocalbase({ workdir, port: 0, dataDir, env: { ...process.env } })
try {
  const { supabase, session } = await signInConfirmedUser(
    lb.url,
    `bench.${Date.now()}@example.test`,
    'bench-password-1234',
  )
  const user = session.user
  const ws = await supabase.from('workspaces').insert({ name: 'Bench' }).select('id').single()
  if (ws.error) throw new Error(ws.error.message)
  const workspaceId = (ws.data as { id: string }).id

  // Loaded as the database owner in large statements: this measures search, not ingestion.
  const started = performance.now()
  await load(lb, workspaceId, (done) => process.stderr.write(`\rloaded ${done}/${CHUNKS} chunks`))
  const loadSeconds = (performance.now() - started) / 1000
  console.log(`\nloaded ${CHUNKS} chunks in ${loadSeconds.toFixed(1)} s`)

  const context = {
    role: 'authenticated',
    claims: { sub: user.id, role: 'authenticated', aud: 'authenticated' },
  }
  type Path = 'fn' | 'rpc' | 'sql'
  const run: Record<Path, (query: string) => Promise<void>> = {
    fn: async (query) => {
      const { error } = await supabase.functions.invoke('search', {
        body: { workspace_id: workspaceId, query },
      })
      if (error) throw new Error(`search function: ${error.message}`)
    },
    rpc: async (query) => {
      const { error } = await supabase.rpc('search_chunks', { workspace_id: workspaceId, query })
      if (error) throw new Error(`search_chunks: ${error.message}`)
    },
    sql: async (query) => {
      await lb.db.asUser(context, (tx) =>
        tx.query('select * from public.search_chunks($1, $2)', [workspaceId, query]),
      )
    },
  }
  type Times = Record<Path, number[]> & { sqlCpu: number[] }
  const newTimes = (): Times => ({ fn: [], rpc: [], sql: [], sqlCpu: [] })
  // Each query runs on all three paths; the first to run it reads what the others then find
  // cached, so the order turns with every query and each path goes first a third of the time.
  const paths: Path[] = ['fn', 'rpc', 'sql']
  const ask = async (times: Times, i: number) => {
    const query = queries[i % queries.length]!
    for (const path of [...paths.slice(i % 3), ...paths.slice(0, i % 3)]) {
      const cpu = process.cpuUsage()
      const began = performance.now()
      await run[path](query)
      times[path].push(performance.now() - began)
      if (path === 'sql') {
        const used = process.cpuUsage(cpu)
        times.sqlCpu.push((used.user + used.system) / 1000)
      }
    }
  }

  const settlingTimes = newTimes()
  const settling = (async () => {
    const changesMs = await drainChanges(lb.db)
    return { changesMs, upkeep: await settleUpkeep(lb.upkeep) }
  })()
  await repeatUntil(settling, (i) => ask(settlingTimes, i))
  const { changesMs, upkeep } = await settling
  console.log(
    `settling after the load: the change feed drained in ${(changesMs / 1000).toFixed(1)} s, ` +
      `then ${upkeep.passes} upkeep pass(es) in ${(upkeep.ms / 1000).toFixed(1)} s ` +
      `(${upkeep.tables.join(', ') || 'nothing due'})${upkeep.settled ? '' : ', not settled'}; ` +
      `${settlingTimes.sql.length} queries timed meanwhile`,
  )
  const times = newTimes()
  for (let i = 0; i < queries.length; i++) await ask(times, i)

  // Each path's percentiles, and its p95 as a ratio of the SQL's: what the stack adds, steadier
  // than milliseconds on a machine whose speed drifts.
  const stats = (ms: number[], sqlP95: number) => {
    const p95 = percentile(ms, 0.95)
    return { p50: percentile(ms, 0.5), p95, over_sql_p95: p95 / sqlP95 }
  }
  const sqlP95 = percentile(times.sql, 0.95)
  const fn = stats(times.fn, sqlP95)
  const rpc = stats(times.rpc, sqlP95)
  const sql = stats(times.sql, sqlP95)
  const sqlCpu = stats(times.sqlCpu, sqlP95)
  const settlingSqlP95 = percentile(settlingTimes.sql, 0.95)
  const settlingSql = stats(settlingTimes.sql, settlingSqlP95)
  const summary = {
    bench: 'search',
    corpus: values.corpus,
    chunks: CHUNKS,
    queries: queries.length,
    function_p50_ms: fn.p50,
    function_p95_ms: fn.p95,
    http_p50_ms: rpc.p50,
    http_p95_ms: rpc.p95,
    sql_p50_ms: sql.p50,
    sql_p95_ms: sql.p95,
    function_over_sql_p95: fn.over_sql_p95,
    http_over_sql_p95: rpc.over_sql_p95,
    sql_cpu_p50_ms: sqlCpu.p50,
    sql_cpu_p95_ms: sqlCpu.p95,
    settling_changes_ms: changesMs,
    settling_upkeep_passes: upkeep.passes,
    settling_upkeep_ms: upkeep.ms,
    settled: upkeep.settled,
    settling_queries: settlingTimes.sql.length,
    settling_sql_p50_ms: settlingSql.p50,
    settling_sql_p95_ms: settlingSql.p95,
    settling_sql_cpu_p95_ms: percentile(settlingTimes.sqlCpu, 0.95),
    settling_function_p95_ms: percentile(settlingTimes.fn, 0.95),
    settling_http_p95_ms: percentile(settlingTimes.rpc, 0.95),
  }
  console.table({
    'search function (HTTP + auth + RLS)': fn,
    'search_chunks RPC (HTTP + auth + RLS)': rpc,
    'SQL on PGlite': sql,
    'SQL on PGlite, CPU time': sqlCpu,
    'SQL on PGlite, while settling': settlingSql,
  })
  console.log(JSON.stringify(summary))
} finally {
  await lb.stop()
  rmSync(dataDir, { recursive: true, force: true })
}
