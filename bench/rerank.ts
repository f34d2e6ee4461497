// What reranking adds to a search, apart from the model's own time: BENCH_CHUNKS (default
// 10,000) passages (SciFact abstracts and FinanceBench pages, as bench:search loads them) and
// BENCH_QUERIES (default 50) SciFact claims through the real search function, each with
// reranking off, by the chat model as judge, and by a rerank model, the order turning with
// every query. The provider is an instant fake at its HTTP boundary (a judge that reverses
// the list, a /rerank that ranks by shared words), so the numbers are the pipeline's overhead
// (a search 40 deep, the passages read whole, the prompt, one provider round trip) and say
// nothing about ranking quality: a fake judge is not a model.
// Run: node bench/rerank.ts [--dataset ../shared/data/scifact]. Prints a table and a JSON line.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { percentile } from '../packages/core/src/retrieval/metrics.ts'
import { startLocalbase } from '../packages/localbase/src/index.ts'
import { loadBeir } from '../scripts/eval/beir.ts'
import { signInConfirmedUser } from '../scripts/eval/confirmed-user.ts'
import { promptText, startFakeProvider } from '../tests/fake-provider/server.ts'
import { loadPassages, readPassages } from './search-corpus.ts'

const CHUNKS = Number(process.env.BENCH_CHUNKS ?? 10_000)
const QUERIES = Number(process.env.BENCH_QUERIES ?? 50)
const workdir = new URL('..', import.meta.url).pathname
const { values } = parseArgs({
  options: { dataset: { type: 'string', default: join(workdir, '../shared/data/scifact') } },
})
const dataset = loadBeir(resolve(values.dataset), 'test')
const passages = await readPassages(
  dataset.corpus,
  join(workdir, '../shared/data/financebench-pdfs'),
)

// The judge answers with every passage id, last first: a reordering that touches them all.
const fake = await startFakeProvider({
  instant: true,
  reply: (request) => {
    const count = promptText(request).match(/<source id="/g)?.length ?? 0
    return Array.from({ length: count }, (_, i) => count - i).join(', ')
  },
})
const dataDir = mkdtempSync(join(tmpdir(), 'sourcebook-bench-rerank-'))
const lb = await startLocalbase({
  workdir,
  port: 0,
  dataDir,
  env: {
    ...process.env,
    OPENAI_API_KEY: 'bench',
    OPENAI_BASE_URL: `${fake.url}/v1`,
    OPENAI_COMPATIBLE_BASE_URL: `${fake.url}/v1`,
    OPENAI_COMPATIBLE_RERANK_MODEL: 'bench-rerank',
  },
})
try {
  const { supabase } = await signInConfirmedUser(
    lb.url,
    `bench.${Date.now()}@example.test`,
    'bench-password-1234',
  )
  const ws = await supabase
    .from('workspaces')
    .insert({ name: 'Bench', chat_model: 'openai:gpt-4.1-mini' })
    .select('id')
    .single()
  if (ws.error) throw new Error(ws.error.message)
  const workspaceId = (ws.data as { id: string }).id
  await loadPassages(lb, workspaceId, passages, CHUNKS, (done) =>
    process.stderr.write(`\rloaded ${done}/${CHUNKS} chunks`),
  )

  type Mode = 'off' | 'judge' | 'model'
  const modes: Mode[] = ['off', 'judge', 'model']
  const times: Record<Mode, number[]> = { off: [], judge: [], model: [] }
  let notReranked = 0
  const setMode = (mode: Mode) =>
    lb.db.pg.query('update public.workspaces set reranking = $2 where id = $1', [workspaceId, mode])
  const queries = dataset.queries.slice(0, QUERIES + 3)
  for (const [i, query] of queries.entries()) {
    for (const mode of [...modes.slice(i % 3), ...modes.slice(0, i % 3)]) {
      await setMode(mode)
      const began = performance.now()
      const { data, error } = await supabase.functions.invoke<{ reranked: boolean }>('search', {
        body: { workspace_id: workspaceId, query: query.text },
      })
      const ms = performance.now() - began
      if (error) throw new Error(`search function: ${error.message}`)
      // The first three queries warm each path up (the function's workers, the caches).
      if (i < 3) continue
      times[mode].push(ms)
      if (mode !== 'off' && !data!.reranked) notReranked++
    }
    process.stderr.write(`\rsearched ${i + 1}/${queries.length}`)
  }
  const round = (ms: number) => Number(ms.toFixed(1))
  const stats = (ms: number[]) => ({
    p50: round(percentile(ms, 0.5)),
    p95: round(percentile(ms, 0.95)),
  })
  const off = stats(times.off)
  const judge = stats(times.judge)
  const model = stats(times.model)
  console.log(`\n${QUERIES} queries over ${CHUNKS} chunks, instant fake provider`)
  console.table({ 'no reranking': off, 'chat model as judge': judge, 'rerank model': model })
  console.log(
    JSON.stringify({
      bench: 'rerank',
      chunks: CHUNKS,
      queries: QUERIES,
      not_reranked: notReranked,
      off_p50_ms: off.p50,
      off_p95_ms: off.p95,
      judge_p50_ms: judge.p50,
      judge_p95_ms: judge.p95,
      model_p50_ms: model.p50,
      model_p95_ms: model.p95,
    }),
  )
} finally {
  await lb.stop()
  await fake.close()
  rmSync(dataDir, { recursive: true, force: true })
}
