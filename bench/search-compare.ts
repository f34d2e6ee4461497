// search_chunks before and after a change, on one database: the same results, and how much
// CPU each takes. The `before` version is search_chunks and the helpers a later migration
// redefined, as the landed migrations before it defined them (`landed` below), installed
// beside the live ones as <name>_before. Each query runs on both alternately (who goes first
// turns), and each must return the same chunk ids, scores (9 decimals) and snippets at
// match_count 10 and 20 (and --deep, e.g. 200), over the whole workspace and filtered to the
// document of its top result.
// Prints each version's CPU time p50/p95, the ratios, the differences, and a final JSON line;
// exits 1 on any difference.
// The database is kept in --data-dir (made and loaded when missing) so reruns skip the load.
// Corpora: bench:search's `scifact` and `library` (see bench/search.ts) at --chunks, or `beir`:
// eval:retrieval's workspace, the dataset's corpus imported as it imports it.
// Run: node bench/search-compare.ts [--corpus scifact|library|beir] [--chunks 100000]
//      [--queries 300] [--data-dir /tmp/search-compare-scifact] [--deep 200]
//      [--short: bench/short-queries.ts's queries instead of the corpus's]
import type { SupabaseClient } from '@supabase/supabase-js'
import { existsSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { percentile } from '../packages/core/src/retrieval/metrics.ts'
import { type Localbase, startLocalbase } from '../packages/localbase/src/index.ts'
import { loadBeir } from '../scripts/eval/beir.ts'
import { signInConfirmedUser } from '../scripts/eval/confirmed-user.ts'
import { loadCorpus } from '../scripts/eval/load-corpus.ts'
import { readQuestions } from '../scripts/eval/library/questions.ts'
import { loadLibrary, loadPassages, readLibrary, readPassages } from './search-corpus.ts'
import { shortQueries } from './short-queries.ts'

const workdir = new URL('..', import.meta.url).pathname
const data = join(workdir, '../shared/data')
const { values } = parseArgs({
  options: {
    corpus: { type: 'string', default: 'scifact' },
    dataset: { type: 'string', default: join(data, 'scifact') },
    chunks: { type: 'string', default: '100000' },
    queries: { type: 'string', default: '300' },
    'data-dir': { type: 'string' },
    deep: { type: 'string' },
    short: { type: 'boolean', default: false },
    // A migration under test to run again (its functions created or replaced), so that edits
    // to it reach a database that has applied it already.
    apply: { type: 'string' },
  },
})
const corpus = values.corpus
if (corpus !== 'scifact' && corpus !== 'library' && corpus !== 'beir') {
  console.error(`--corpus is scifact, library or beir, not ${corpus}`)
  process.exit(2)
}
const chunks = Number(values.chunks)
const dataDir = resolve(
  values['data-dir'] ?? `/tmp/search-compare-${corpus}${corpus === 'beir' ? '' : `-${chunks}`}`,
)
const fresh = !existsSync(dataDir)

// The function the next change redefines, as the latest migration left it (calling the live
// helpers): point it at the migration before yours to measure yours.
const migrations = join(workdir, 'supabase/migrations')
const landed: [name: string, file: string][] = [
  ['search_chunks', '20260101007100_search_rounds_checked_on_the_row.sql'],
  ['search_snippet', '20260101007600_search_snippet_decompressed_once.sql'],
  // Dropped since (their queries are search_chunks's rounds): the version before calls them.
  ['bm25_top', '20260101005800_search_rounds_planned_once.sql'],
  ['bm25_boosted_top', '20260101005800_search_rounds_planned_once.sql'],
]

/** The landed functions' definitions, each renamed <name>_before and calling the others so. */
function beforeDefinitions(): string {
  return landed
    .map(([name, file]) => {
      const sql = readFileSync(join(migrations, file), 'utf8')
      const start = Math.max(
        sql.lastIndexOf(`create or replace function public.${name}(`),
        sql.lastIndexOf(`create function public.${name}(`),
      )
      const end = sql.indexOf('$$;', start)
      if (start < 0 || end < 0) throw new Error(`no ${name} in ${file}`)
      // A kept database holds them from an earlier run, maybe of another shape: dropped first.
      let definition = `do $drop$ declare f regprocedure; begin
          for f in select p.oid from pg_proc p where p.proname = '${name}_before'
                     and p.pronamespace = 'public'::regnamespace loop
            execute format('drop function %s', f);
          end loop;
        end $drop$;\n${sql.slice(start, end + '$$;'.length)}`
      // Calls (public.name) and parameters qualified by the function's name (name.param).
      for (const [other] of landed) {
        definition = definition
          .replaceAll(`public.${other}(`, `public.${other}_before(`)
          .replaceAll(`${other}.`, `${other}_before.`)
      }
      return definition
    })
    .join('\n')
}

async function readCorpus() {
  const count = Number(values.queries)
  if (corpus === 'library') {
    const questions = readQuestions(join(data, 'financebench-dev/questions.jsonl'))
    const queries = questions.map((q) => q.question)
    return {
      queries: Array.from({ length: count }, (_, i) => queries[i % queries.length]!),
      load: async (_: SupabaseClient, lb: Localbase, workspaceId: string) => {
        const documents = await readLibrary(
          ['financebench-pdfs', 'financebench-distractors'].map((d) => join(data, d)),
        )
        await loadLibrary(lb, workspaceId, documents, chunks, progress)
      },
    }
  }
  const dataset = loadBeir(resolve(values.dataset!), 'test')
  if (corpus === 'beir') {
    return {
      queries: dataset.queries.slice(0, count).map((q) => q.text),
      load: (supabase: SupabaseClient, _: Localbase, workspaceId: string) =>
        loadCorpus(supabase, workspaceId, dataset.corpus),
    }
  }
  return {
    queries: dataset.queries.slice(0, count).map((q) => q.text),
    load: async (_: SupabaseClient, lb: Localbase, workspaceId: string) => {
      const passages = await readPassages(dataset.corpus, join(data, 'financebench-pdfs'))
      await loadPassages(lb, workspaceId, passages, chunks, progress)
    },
  }
}
const progress = (done: number) => process.stderr.write(`\rloaded ${done}/${chunks} chunks`)
const { queries: corpusQueries, load } = await readCorpus()

const lb = await startLocalbase({ workdir, port: 0, dataDir, env: { ...process.env } })
try {
  if (fresh) {
    const { supabase } = await signInConfirmedUser(
      lb.url,
      `compare.${Date.now()}@example.test`,
      'compare-password-1234',
    )
    const ws = await supabase.from('workspaces').insert({ name: 'Compare' }).select('id').single()
    if (ws.error) throw new Error(ws.error.message)
    await load(supabase, lb, (ws.data as { id: string }).id)
    process.stderr.write('\n')
  }
  const found = await lb.db.pg.query<{ id: string }>(
    `select id from public.workspaces where name = 'Compare'`,
  )
  const workspaceId = found.rows[0]!.id
  const queries = values.short ? await shortQueries(lb.db.pg, data) : corpusQueries
  await lb.db.pg.exec(beforeDefinitions())
  if (values.apply) await lb.db.pg.exec(readFileSync(values.apply, 'utf8'))

  // The service role passes search_chunks's membership test as a member would.
  const context = { role: 'service_role', claims: { role: 'service_role' } }
  type Row = { chunk_id: string; document_id: string; score: number; snippet: string | null }
  const search = (fn: string, query: string, count: number, documentIds: string[] | null) =>
    lb.db.asUser(context, async (tx) => {
      const result = await tx.query<Row>(
        `select chunk_id, document_id, score, snippet from public.${fn}($1, $2, $3, $4)`,
        [workspaceId, query, count, documentIds],
      )
      return result.rows
    })
  const key = (rows: Row[]) =>
    rows.map((r) => `${r.chunk_id} ${r.score.toFixed(9)} ${r.snippet}`).join('\n')

  const cpu = { before: [] as number[], after: [] as number[] }
  let differences = 0
  let compared = 0
  const counts = [10, 20, ...(values.deep ? [Number(values.deep)] : [])]
  for (const [i, query] of queries.entries()) {
    const order = i % 2 === 0 ? (['before', 'after'] as const) : (['after', 'before'] as const)
    const results: Record<string, Row[]> = {}
    for (const version of order) {
      const fn = version === 'before' ? 'search_chunks_before' : 'search_chunks'
      const began = process.cpuUsage()
      results[version] = await search(fn, query, 10, null)
      const used = process.cpuUsage(began)
      cpu[version].push((used.user + used.system) / 1000)
    }
    const top = results.before![0]?.document_id
    for (const count of counts) {
      for (const documentIds of top ? [null, [top]] : [null]) {
        const before = await search('search_chunks_before', query, count, documentIds)
        const after = await search('search_chunks', query, count, documentIds)
        compared++
        if (key(before) !== key(after)) {
          differences++
          console.log(`differs: top ${count}${documentIds ? ' in one document' : ''}: ${query}`)
        }
      }
    }
    process.stderr.write(`\r${i + 1}/${queries.length} queries, ${differences} differences`)
  }
  process.stderr.write('\n')
  const stats = (ms: number[]) => ({
    p50: percentile(ms, 0.5),
    p95: percentile(ms, 0.95),
    total: ms.reduce((a, b) => a + b, 0),
  })
  const before = stats(cpu.before)
  const after = stats(cpu.after)
  console.table({ before, after })
  const summary = {
    bench: 'search-compare',
    corpus,
    chunks: corpus === 'beir' ? null : chunks,
    queries: queries.length,
    short: values.short,
    compared,
    differences,
    before_cpu_p50_ms: before.p50,
    before_cpu_p95_ms: before.p95,
    after_cpu_p50_ms: after.p50,
    after_cpu_p95_ms: after.p95,
    p50_ratio: after.p50 / before.p50,
    p95_ratio: after.p95 / before.p95,
    total_ratio: after.total / before.total,
  }
  console.log(JSON.stringify(summary))
  process.exitCode = differences === 0 ? 0 : 1
} finally {
  await lb.stop()
}
