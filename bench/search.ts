// Search latency at scale: search_chunks over BENCH_CHUNKS (default 100,000) chunks built by
// repeating SciFact abstracts with words dropped at random, queried with SciFact's test
// claims (the first BENCH_QUERIES, default all 300) one at a time through HTTP + auth + RLS
// (supabase-js), next to the same SQL run directly on PGlite in the same request context.
// Prints a summary and a final JSON line.
// Run: node bench/search.ts [--dataset ../shared/data/scifact]
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { createClient } from '@supabase/supabase-js'
import { percentile } from '../packages/core/src/retrieval/metrics.ts'
import { DEFAULT_ANON_KEY, startLocalbase } from '../packages/localbase/src/index.ts'
import { loadBeir } from '../scripts/eval/beir.ts'

const CHUNKS = Number(process.env.BENCH_CHUNKS ?? 100_000)
const QUERIES = Number(process.env.BENCH_QUERIES ?? 300)
const BATCH = 2_000
const workdir = new URL('..', import.meta.url).pathname
const { values } = parseArgs({
  options: { dataset: { type: 'string', default: join(workdir, '../shared/data/scifact') } },
})
const dataset = loadBeir(resolve(values.dataset), 'test')

/** A deterministic generator, so every run indexes the same text. */
function random(seed: number) {
  return () => (seed = (Math.imul(seed, 1_664_525) + 1_013_904_223) >>> 0) / 2 ** 32
}
const rand = random(42)
const perturb = (text: string) =>
  text
    .split(' ')
    .filter(() => rand() > 0.15)
    .join(' ')

const dataDir = mkdtempSync(join(tmpdir(), 'sourcebook-bench-search-'))
const lb = await startLocalbase({ workdir, port: 0, dataDir, env: { ...process.env } })
try {
  const supabase = createClient(lb.url, DEFAULT_ANON_KEY, {
    auth: { persistSession: false, autoRefreshToken: false },
  })
  const signUp = await supabase.auth.signUp({
    email: `bench.${Date.now()}@example.test`,
    password: 'bench-password-1234',
  })
  const user = signUp.data.user
  if (signUp.error || !user) throw new Error(`sign-up failed: ${signUp.error?.message}`)
  const ws = await supabase.from('workspaces').insert({ name: 'Bench' }).select('id').single()
  if (ws.error) throw new Error(ws.error.message)
  const workspaceId = (ws.data as { id: string }).id

  // Loaded as the database owner in large statements: this measures search, not ingestion.
  const started = performance.now()
  for (let done = 0; done < CHUNKS; done += BATCH) {
    const rows = Array.from({ length: Math.min(BATCH, CHUNKS - done) }, (_, i) => {
      const entry = dataset.corpus[(done + i) % dataset.corpus.length]!
      return { title: entry.title, content: perturb(`${entry.title}\n\n${entry.text}`) }
    })
    await lb.db.asService((tx) =>
      tx.query(
        `with rows as (
           select r.title, r.content, gen_random_uuid() as id
           from jsonb_to_recordset($2::jsonb) as r(title text, content text)
         ), docs as (
           insert into public.documents (id, workspace_id, title, status, stage, chunk_count)
           select id, $1, left(title, 500), 'ready', 'ready', 1 from rows
         )
         insert into public.chunks (document_id, workspace_id, ordinal, content)
         select id, $1, 0, content from rows`,
        [workspaceId, JSON.stringify(rows)],
      ),
    )
    process.stderr.write(`\rloaded ${done + rows.length}/${CHUNKS} chunks`)
  }
  await lb.db.pg.query('analyze public.chunks, public.chunk_term_stats')
  const loadSeconds = (performance.now() - started) / 1000
  console.log(`\nloaded ${CHUNKS} chunks in ${loadSeconds.toFixed(1)} s`)

  const context = {
    role: 'authenticated',
    claims: { sub: user.id, role: 'authenticated', aud: 'authenticated' },
  }
  const http: number[] = []
  const direct: number[] = []
  const queries = dataset.queries.slice(0, QUERIES)
  for (const query of queries) {
    let began = performance.now()
    const { error } = await supabase.rpc('search_chunks', {
      workspace_id: workspaceId,
      query: query.text,
    })
    http.push(performance.now() - began)
    if (error) throw new Error(error.message)
    began = performance.now()
    await lb.db.asUser(context, (tx) =>
      tx.query('select * from public.search_chunks($1, $2)', [workspaceId, query.text]),
    )
    direct.push(performance.now() - began)
  }
  const summary = {
    bench: 'search',
    chunks: CHUNKS,
    queries: queries.length,
    http_p50_ms: percentile(http, 0.5),
    http_p95_ms: percentile(http, 0.95),
    sql_p50_ms: percentile(direct, 0.5),
    sql_p95_ms: percentile(direct, 0.95),
  }
  console.table({
    'HTTP + auth + RLS': { p50: summary.http_p50_ms, p95: summary.http_p95_ms },
    'SQL on PGlite': { p50: summary.sql_p50_ms, p95: summary.sql_p95_ms },
  })
  console.log(JSON.stringify(summary))
} finally {
  await lb.stop()
  rmSync(dataDir, { recursive: true, force: true })
}
