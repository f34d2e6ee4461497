// Chat latency at scale: BENCH_CHUNKS (default 100,000) chunks built by repeating SciFact
// abstracts with words dropped at random; BENCH_QUERIES (default 100) SciFact test claims
// asked one at a time through the real chat Edge Function, each in a new conversation, with
// an instant fake OpenAI provider. Measures the time from sending the request to the first
// byte of the stream (the meta event) and to the first answer delta, p50/p95, and the
// function's own breakdown (auth = access + rate limit + history, retrieval, prompt
// building, provider = request to first token) from the timings of its `done` event.
// Run: node bench/chat.ts [--dataset ../shared/data/scifact]. Prints a table and a JSON line.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { percentile } from '../packages/core/src/retrieval/metrics.ts'
import { startLocalbase } from '../packages/localbase/src/index.ts'
import { loadBeir } from '../scripts/eval/beir.ts'
import { signInConfirmedUser } from '../scripts/eval/confirmed-user.ts'
import { ask } from '../supabase/tests/chat-client.ts'
import { startFakeProvider } from '../tests/fake-provider/server.ts'

const CHUNKS = Number(process.env.BENCH_CHUNKS ?? 100_000)
const QUERIES = Number(process.env.BENCH_QUERIES ?? 100)
const WARMUP = 5
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

const fake = await startFakeProvider({ instant: true })
const dataDir = mkdtempSync(join(tmpdir(), 'sourcebook-bench-chat-'))
const lb = await startLocalbase({
  workdir,
  port: 0,
  dataDir,
  env: {
    ...process.env,
    OPENAI_API_KEY: 'bench',
    OPENAI_BASE_URL: `${fake.url}/v1`,
    CHAT_RATE_LIMIT_PER_MINUTE: '100000',
  },
})
try {
  const { supabase, session } = await signInConfirmedUser(
    lb.url,
    `bench.${Date.now()}@example.test`,
    'bench-password-1234',
  )
  const user = { id: session.user.id, email: session.user.email!, jwt: session.access_token }
  const ws = await supabase
    .from('workspaces')
    .insert({ name: 'Bench', chat_model: 'openai:gpt-4.1-mini' })
    .select('id')
    .single()
  if (ws.error) throw new Error(ws.error.message)
  const workspaceId = (ws.data as { id: string }).id

  // Loaded as the database owner in large statements: this measures chat, not ingestion.
  const started = performance.now()
  for (let done = 0; done < CHUNKS; done += BATCH) {
    const rows = Array.from({ length: Math.min(BATCH, CHUNKS - done) }, (_, i) => {
      const entry = dataset.corpus[(done + i) % dataset.corpus.length]!
      const content = perturb(`${entry.title}\n\n${entry.text}`)
      return { title: entry.title, content }
    })
    await lb.db.asService((tx) =>
      tx.query(
        `with rows as (
           select r.title, r.content, gen_random_uuid() as id
           from jsonb_to_recordset($2::jsonb) as r(title text, content text)
         ), docs as (
           insert into public.documents (id, workspace_id, title, status, stage, chunk_count)
           select id, $1, left(title, 500), 'ready', 'ready', 1 from rows
         ), texts as (
           insert into public.document_texts (document_id, workspace_id, text)
           select id, $1, content from rows
         )
         insert into public.chunks (document_id, workspace_id, ordinal, content, char_start, char_end, page_start, page_end)
         select id, $1, 0, content, 0, char_length(content), 1, 1 from rows`,
        [workspaceId, JSON.stringify(rows)],
      ),
    )
    process.stderr.write(`\rloaded ${done + rows.length}/${CHUNKS} chunks`)
  }
  await lb.db.pg.query('analyze public.chunks, public.chunk_term_stats')
  console.log(`\nloaded ${CHUNKS} chunks in ${((performance.now() - started) / 1000).toFixed(1)} s`)

  const samples: Record<string, number[]> = {}
  const record = (name: string, ms: number) => (samples[name] ??= []).push(ms)
  const questions = dataset.queries.slice(0, WARMUP + QUERIES)
  let failures = 0
  for (const [i, question] of questions.entries()) {
    const conversation = await supabase
      .from('conversations')
      .insert({ workspace_id: workspaceId, title: 'Bench' })
      .select('id')
      .single()
    if (conversation.error) throw new Error(conversation.error.message)
    const sent = performance.now()
    const arrived: Record<string, number> = {}
    const reply = await ask(
      lb,
      user,
      { conversation_id: (conversation.data as { id: string }).id, content: question.text },
      { onEvent: (e) => (arrived[e.event] ??= performance.now() - sent) },
    )
    const done = reply.events.find((e) => e.event === 'done')
    if (!done) {
      failures++
      continue
    }
    if (i < WARMUP) continue
    record('first byte (meta)', arrived.meta!)
    record('first answer delta', arrived.delta!)
    const timings = done.data.timings as Record<string, number>
    for (const step of ['auth_ms', 'retrieval_ms', 'prompt_ms', 'provider_ms'])
      record(`  function: ${step.replace('_ms', '')}`, timings[step]!)
    record('  function: first delta', timings.first_delta_ms!)
    process.stderr.write(`\rasked ${i + 1 - WARMUP}/${QUERIES}`)
  }

  const rows = Object.entries(samples).map(([name, ms]) => ({
    step: name,
    'p50 ms': Number(percentile(ms, 0.5).toFixed(1)),
    'p95 ms': Number(percentile(ms, 0.95).toFixed(1)),
  }))
  console.log(`\n${QUERIES} questions over ${CHUNKS} chunks (instant provider), ${failures} failed`)
  console.table(rows)
  console.log(JSON.stringify({ chunks: CHUNKS, queries: QUERIES, failures, steps: rows }))
} finally {
  await lb.stop()
  await fake.close()
  rmSync(dataDir, { recursive: true, force: true })
}
