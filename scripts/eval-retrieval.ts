/**
 * Lexical retrieval quality on a BEIR dataset, measured end to end: the corpus goes into a
 * fresh localbase through supabase-js, and every query of the split runs through
 * `supabase.rpc('search_chunks')` as a workspace member, with RLS on.
 *
 *   node scripts/eval-retrieval.ts --dataset ../shared/data/scifact --split test [--k1 0.9 --b 0.4]
 *   node scripts/eval-retrieval.ts --dataset ../shared/data/scifact --split train --grid
 *   node scripts/eval-retrieval.ts --dataset ../shared/data/scifact --rankings ranked.json
 *
 * Prints a table, then one JSON line per run. `--rankings` writes each query's ranked corpus
 * ids with their scores (of the last run), to diff two commits query by query.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { startLocalbase } from '../packages/localbase/src/index.ts'
import { loadBeir } from './eval/beir.ts'
import { signInConfirmedUser } from './eval/confirmed-user.ts'
import { loadCorpus } from './eval/load-corpus.ts'
import { type Bm25Params, type Ranking, runQueries, type Scores } from './eval/run-queries.ts'

const { values } = parseArgs({
  options: {
    dataset: { type: 'string' },
    split: { type: 'string', default: 'test' },
    k1: { type: 'string' },
    b: { type: 'string' },
    grid: { type: 'boolean', default: false },
    rankings: { type: 'string' },
  },
})
if (!values.dataset || !['test', 'train', 'dev'].includes(values.split)) {
  console.error(
    'usage: node scripts/eval-retrieval.ts --dataset <BEIR folder> --split <test|train|dev> [--k1 <n> --b <n>] [--grid] [--rankings <file>]',
  )
  process.exit(2)
}
const number = (text: string | undefined) => (text === undefined ? undefined : Number(text))
const single: Bm25Params = { k1: number(values.k1), b: number(values.b) }
// The grid used to choose the defaults, on the train split only.
const runs: Bm25Params[] = values.grid
  ? [0.9, 1.2, 1.5].flatMap((k1) => [0.4, 0.6, 0.75].map((b) => ({ k1, b })))
  : [Object.fromEntries(Object.entries(single).filter(([, v]) => v !== undefined))]

const dataset = loadBeir(resolve(values.dataset), values.split)
const workdir = new URL('..', import.meta.url).pathname
const dataDir = mkdtempSync(join(tmpdir(), 'sourcebook-eval-'))
const localbase = await startLocalbase({ workdir, port: 0, dataDir, env: { ...process.env } })
try {
  const { supabase } = await signInConfirmedUser(
    localbase.url,
    `eval.${Date.now()}@example.test`,
    'eval-password-1234',
  )
  const workspace = await supabase
    .from('workspaces')
    .insert({ name: 'Evaluation' })
    .select()
    .single()
  if (workspace.error) throw new Error(`creating the workspace: ${workspace.error.message}`)
  const workspaceId = (workspace.data as { id: string }).id

  const loadStarted = performance.now()
  const corpusIdOf = await loadCorpus(supabase, workspaceId, dataset.corpus)
  const loadSeconds = (performance.now() - loadStarted) / 1000
  console.log(`loaded ${dataset.corpus.length} documents in ${loadSeconds.toFixed(1)} s`)

  const results: (Bm25Params & Scores)[] = []
  const rankings = new Map<string, Ranking>()
  for (const params of runs) {
    results.push({
      ...params,
      ...(await runQueries(supabase, workspaceId, dataset, corpusIdOf, params, rankings)),
    })
  }
  if (values.rankings) writeFileSync(values.rankings, JSON.stringify(Object.fromEntries(rankings)))
  const f = (x: number | undefined, digits = 4) => (x === undefined ? 'default' : x.toFixed(digits))
  console.log(`\n${values.split} split, ${dataset.queries.length} queries`)
  console.table(
    results.map((r) => ({
      k1: f(r.k1, 2),
      b: f(r.b, 2),
      'nDCG@10': f(r.ndcg10),
      'Recall@10': f(r.recall10),
      'Recall@100': f(r.recall100),
      'MRR@10': f(r.mrr10),
      'p50 ms': f(r.p50ms, 1),
      'p95 ms': f(r.p95ms, 1),
    })),
  )
  for (const r of results)
    console.log(JSON.stringify({ dataset: values.dataset, split: values.split, ...r }))
} finally {
  await localbase.stop()
  rmSync(dataDir, { recursive: true, force: true })
}
