// Where search_chunks spends its time, on a database bench/search-compare.ts loaded: a copy of
// the function with a mark before each top-level statement of its body runs each query once,
// with track_functions on. Prints each helper's calls and self time (what is left is
// search_chunks's own statements), each statement's share of the time (step n runs from mark
// n to the next one; PROFILE_SQL=<file> writes the marked copy, to read which statement that
// is) in the slowest 5% of queries and in the rest, and the slowest queries.
// Times in the database are wall times: on a busy machine compare shares, not milliseconds.
// Run: node bench/search-profile.ts --data-dir /tmp/search-compare-scifact-100000 [--queries 300]
//      [--corpus scifact|library|short (bench/short-queries.ts)] [--count 10]
import { writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { percentile } from '../packages/core/src/retrieval/metrics.ts'
import { startLocalbase } from '../packages/localbase/src/index.ts'
import { loadBeir } from '../scripts/eval/beir.ts'
import { readQuestions } from '../scripts/eval/library/questions.ts'
import { shortQueries } from './short-queries.ts'

const workdir = new URL('..', import.meta.url).pathname
const data = join(workdir, '../shared/data')
const { values } = parseArgs({
  options: {
    corpus: { type: 'string', default: 'scifact' },
    'data-dir': { type: 'string' },
    queries: { type: 'string', default: '300' },
    fn: { type: 'string', default: 'search_chunks' },
    // Results per search (bench:load's searches ask for 20).
    count: { type: 'string', default: '10' },
  },
})
const count = Number(values.queries)

const lb = await startLocalbase({
  workdir,
  port: 0,
  dataDir: resolve(values['data-dir']!),
  env: { ...process.env },
})
const queries =
  values.corpus === 'library'
    ? readQuestions(join(data, 'financebench-dev/questions.jsonl')).map((q) => q.question)
    : values.corpus === 'short'
      ? await shortQueries(lb.db.pg, data)
      : loadBeir(join(data, 'scifact'), 'test')
          .queries.slice(0, count)
          .map((q) => q.text)
// Each top-level statement of the function's body adds its time to prof.t<n>.
const mark = `create or replace function public.prof_mark(k int) returns void language plpgsql as $$
declare
  now_ms float8 := extract(epoch from clock_timestamp()) * 1000;
  last float8 := coalesce(nullif(current_setting('prof.last', true), '')::float8, now_ms);
  prev text := coalesce(nullif(current_setting('prof.step', true), ''), '00');
begin
  if k > 0 then
    perform set_config('prof.t' || prev, (coalesce(nullif(current_setting('prof.t' || prev,
      true), '')::float8, 0) + now_ms - last)::text, false);
  end if;
  perform set_config('prof.last', now_ms::text, false);
  perform set_config('prof.step', lpad(k::text, 2, '0'), false);
end $$`

async function definition(fn: string) {
  const found = await lb.db.pg.query<{ def: string }>(
    `select pg_get_functiondef(p.oid) as def from pg_proc p where p.proname = $1`,
    [fn],
  )
  return found.rows[0]!.def
}

function instrumented(def: string) {
  let k = 0
  const [head, body] = def
    .replaceAll(`${values.fn}.`, 'search_chunks_prof.')
    .replace(`public.${values.fn}(`, 'public.search_chunks_prof(')
    .split(/\nbegin\n/)
  // A statement starts at the body's indent after one that ended.
  let ended = true
  const lines = body!.split('\n').map((line) => {
    const starts = ended && /^ {2}[a-z]/.test(line)
    if (/\S/.test(line) && !/^\s*--/.test(line)) ended = /(;|\bloop|\bthen)$/.test(line.trimEnd())
    return starts ? `  perform public.prof_mark(${k++});\n${line}` : line
  })
  const text = lines
    .join('\n')
    .replace(/\nend(\s*\$[a-z_]*\$)/, `\n  perform public.prof_mark(${k});\nend$1`)
  return `${head}\nbegin\n${text}`
}

try {
  const found = await lb.db.pg.query<{ id: string }>(
    `select id from public.workspaces where name = 'Compare'`,
  )
  const workspaceId = found.rows[0]!.id
  const context = { role: 'service_role', claims: { role: 'service_role' } }
  const times: { ms: number; query: string; steps: number[] }[] = []
  const stats = `select funcname, calls, total_time, self_time from pg_stat_user_functions
    where schemaname = 'public' order by self_time desc`
  const profiled = instrumented(await definition(values.fn!))
  if (process.env.PROFILE_SQL) writeFileSync(process.env.PROFILE_SQL, profiled)
  await lb.db.pg.query(profiled)
  await lb.db.pg.query(mark)
  await lb.db.pg.query(`set track_functions = 'all'`)
  await lb.db.pg.query('select pg_stat_reset()')
  for (const query of queries) {
    const began = process.cpuUsage()
    await lb.db.asUser(context, (tx) =>
      tx.query(`select chunk_id from public.search_chunks_prof($1, $2, $3)`, [
        workspaceId,
        query,
        Number(values.count),
      ]),
    )
    const used = process.cpuUsage(began)
    const steps = await lb.db.pg.query<{ k: number; ms: number }>(
      `select k, coalesce(nullif(current_setting('prof.t' || lpad(k::text, 2, '0'), true), ''),
         '0')::float8 as ms from generate_series(0, 40) k`,
    )
    await lb.db.pg.query(
      `select set_config('prof.t' || lpad(k::text, 2, '0'), '0', false) from generate_series(0, 40) k`,
    )
    times.push({ ms: (used.user + used.system) / 1000, query, steps: steps.rows.map((r) => r.ms) })
  }
  await lb.db.pg.query('select pg_stat_force_next_flush()').catch(() => undefined)
  console.table((await lb.db.pg.query(stats)).rows)
  // Each step's share of the time (wall, as the marks see it), in the slowest 5% and the rest.
  const sorted = [...times].sort((a, b) => b.ms - a.ms)
  const tail = sorted.slice(1, Math.ceil(times.length / 20) + 1)
  const rest = sorted.slice(Math.ceil(times.length / 20) + 1)
  const shares = (group: typeof times) => {
    const sums = group[0]!.steps.map((_, k) => group.reduce((sum, t) => sum + t.steps[k]!, 0))
    const total = sums.reduce((a, b) => a + b, 0)
    return sums.map((v) => Math.round((1000 * v) / total) / 10)
  }
  const tailShares = shares(tail)
  const restShares = shares(rest)
  console.table(
    tailShares
      .map((share, k) => ({ step: k, tail: share, rest: restShares[k] }))
      .filter((row) => row.tail > 0 || row.rest! > 0),
  )
  const ms = times.map((t) => t.ms)
  console.log({ p50: percentile(ms, 0.5), p95: percentile(ms, 0.95) })
  for (const t of times.sort((a, b) => b.ms - a.ms).slice(0, 20)) {
    console.log(`${t.ms.toFixed(1)} ms  ${t.query}`)
  }
} finally {
  await lb.stop()
}
