// How many chunks search_chunks scores per query, before and after a change, on a database
// bench/search-compare.ts loaded (and gave search_chunks_before). CPU time on a shared machine
// moves by 10-25% between runs of the same code; the chunks the lexical rounds score (most of
// a slow search's time) do not move at all, so a change that claims fewer is checked here.
// Each version runs on a copy whose rounds pass each chunk's lexemes through a counter on their
// way to its BM25 (bm25_top's query before 20260101007900, the rounds' own after): what the
// round's index condition and skip let through, as the rounds score them (the boosted
// documents' rounds not counted).
// Prints the queries that score the most, and a final JSON line (totals, p50, p95).
// Run: node bench/search-candidates.ts --data-dir /tmp/search-compare-scifact-100000
//      [--corpus scifact|library] [--queries 300]
import { join, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { percentile } from '../packages/core/src/retrieval/metrics.ts'
import { startLocalbase } from '../packages/localbase/src/index.ts'
import { loadBeir } from '../scripts/eval/beir.ts'
import { readQuestions } from '../scripts/eval/library/questions.ts'

const workdir = new URL('..', import.meta.url).pathname
const data = join(workdir, '../shared/data')
const { values } = parseArgs({
  options: {
    corpus: { type: 'string', default: 'scifact' },
    'data-dir': { type: 'string' },
    queries: { type: 'string', default: '300' },
  },
})
const queries = (
  values.corpus === 'library'
    ? readQuestions(join(data, 'financebench-dev/questions.jsonl')).map((q) => q.question)
    : loadBeir(join(data, 'scifact'), 'test').queries.map((q) => q.text)
).slice(0, Number(values.queries))

const counter = `create or replace function public.bench_scored(lexemes tsvector)
returns tsvector language plpgsql as $$
begin
  perform set_config('bench.scored', (current_setting('bench.scored')::int + 1)::text, false);
  return lexemes;
end $$`
const counted = (def: string) =>
  def.replaceAll("setweight(c.lexemes, 'A', ", "setweight(public.bench_scored(c.lexemes), 'A', ")

const lb = await startLocalbase({
  workdir,
  port: 0,
  dataDir: resolve(values['data-dir']!),
  env: { ...process.env },
})
try {
  const found = await lb.db.pg.query<{ id: string }>(
    `select id from public.workspaces where name = 'Compare'`,
  )
  const workspaceId = found.rows[0]!.id
  await lb.db.pg.exec(counter)
  // The version before calls bm25_top_before (bench/search-compare.ts made it): a counted copy.
  const copies: [fn: string, copy: string][] = [
    ['bm25_top_before', 'counted_bm25_top'],
    ['search_chunks_before', 'counted_before'],
    ['search_chunks', 'counted_after'],
  ]
  for (const [fn, copy] of copies) {
    const { rows } = await lb.db.pg.query<{ def: string }>(
      `select pg_get_functiondef($1::regproc) as def`,
      [`public.${fn}`],
    )
    await lb.db.pg.exec(
      counted(rows[0]!.def)
        .replace(`public.${fn}(`, `public.${copy}(`)
        .replaceAll(`${fn}.`, `${copy}.`)
        .replaceAll('public.bm25_top_before(', 'public.counted_bm25_top('),
    )
  }
  // The service role passes search_chunks's membership test as a member would.
  const context = { role: 'service_role', claims: { role: 'service_role' } }
  const scored = { before: [] as number[], after: [] as number[] }
  for (const [i, query] of queries.entries()) {
    for (const version of ['before', 'after'] as const) {
      await lb.db.pg.query(`select set_config('bench.scored', '0', false)`)
      await lb.db.asUser(context, (tx) =>
        tx.query(`select chunk_id from public.counted_${version}($1, $2)`, [workspaceId, query]),
      )
      const { rows } = await lb.db.pg.query<{ n: string }>(
        `select current_setting('bench.scored') as n`,
      )
      scored[version].push(Number(rows[0]!.n))
    }
    process.stderr.write(`\r${i + 1}/${queries.length} queries`)
  }
  process.stderr.write('\n')
  const order = queries.map((_, i) => i).sort((a, b) => scored.before[b]! - scored.before[a]!)
  for (const i of order.slice(0, 15)) {
    console.log(`${scored.before[i]} -> ${scored.after[i]}  ${queries[i]!.slice(0, 80)}`)
  }
  const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0)
  console.log(
    JSON.stringify({
      bench: 'search-candidates',
      corpus: values.corpus,
      queries: queries.length,
      before_total: sum(scored.before),
      after_total: sum(scored.after),
      before_p50: percentile(scored.before, 0.5),
      after_p50: percentile(scored.after, 0.5),
      before_p95: percentile(scored.before, 0.95),
      after_p95: percentile(scored.after, 0.95),
      fewer: queries.filter((_, i) => scored.after[i]! < scored.before[i]!).length,
      more: queries.filter((_, i) => scored.after[i]! > scored.before[i]!).length,
    }),
  )
} finally {
  await lb.stop()
}
