// What one count_document_stats call costs (issues #16 and #17) in a workspace whose term
// statistics are already large: other filings ready first, then one filing being indexed,
// counted `max_chunks` at a time, called through REST (as an import does) and directly, the
// two alternated as the machine is shared. Prints the plan of the statement that merges the
// counted terms into chunk_term_stats.
// Run: node bench/count-stats-profile.ts [max_chunks …]  (default 200)
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { chunkBatches } from '../packages/core/src/ingest/chunk-batches.ts'
import { processFile } from '../packages/core/src/ingest/process-file.ts'
import type { Chunk } from '../packages/core/src/chunk/chunk-document.ts'
import { adminClient, startStack } from '../supabase/tests/stack.ts'
import { createPeople, createWorld } from '../supabase/tests/world.ts'

const root = fileURLToPath(new URL('..', import.meta.url))
const budgets = process.argv.slice(2).map(Number)
const library = [
  'JPMORGAN_2021Q1_10Q.pdf',
  'VERIZON_2021_10K.pdf',
  'ACTIVISIONBLIZZARD_2019_10K.pdf',
  'AMCOR_2023_10K.pdf',
  'GENERALMILLS_2022_10K.pdf',
]
const targets = (process.env.TARGETS ?? 'AMERICANEXPRESS_2022_10K.pdf').split(',')
const chunksOf = async (name: string) =>
  (
    await processFile({
      bytes: new Uint8Array(await readFile(join(root, '../shared/data/financebench-pdfs', name))),
      fileName: name,
    })
  ).chunks

const stack = await startStack()
const people = await createPeople(stack)
const pg = stack.db.pg
const admin = adminClient(stack)
await pg.query(`select set_config('request.jwt.claims', '{"role":"service_role"}', false)`)
const { workspaceId } = await createWorld(stack, people)

async function indexing(chunks: Chunk[], status = 'processing'): Promise<string> {
  const { rows } = await pg.query<{ id: string }>(
    `insert into public.documents (workspace_id, title, status, stage)
     values ($1, 'profile', 'processing', 'indexing') returning id`,
    [workspaceId],
  )
  const id = rows[0]!.id
  for (const batch of chunkBatches(chunks, (c) => c.content.length)) {
    const rows = batch.map((c) => ({
      ordinal: c.ordinal,
      content: c.content,
      heading_path: c.headingPath,
    }))
    await pg.query(
      `insert into public.chunks (document_id, workspace_id, ordinal, content, heading_path)
       select $1, $2, r.ordinal, r.content, r.heading_path
       from jsonb_to_recordset($3::jsonb) as r(ordinal int, content text, heading_path text[])`,
      [id, workspaceId, JSON.stringify(rows)],
    )
  }
  if (status === 'ready')
    await pg.query(`update public.documents set status = 'ready' where id = $1`, [id])
  return id
}

for (const name of library) await indexing(await chunksOf(name), 'ready')
// As localbase's upkeep would have by now.
if (!process.env.NO_ANALYZE) await pg.query('analyze')
const { rows: size } = await pg.query<{ n: number }>(
  'select count(*)::int as n from public.chunk_term_stats where workspace_id = $1',
  [workspaceId],
)
console.log(`${library.length} filings ready: ${size[0]!.n} terms`)

async function explain(chunks: Chunk[], maxChunks: number) {
  const id = await indexing(chunks)
  const { rows } = await pg.query<{ s: string }>(
    `select (public.chunk_stats_statements(null, format(
       '(select c.workspace_id, c.lexemes, c.lexeme_count from public.chunks c
         where c.document_id = %L and c.ordinal >= 0 and c.ordinal < %s)', $1::uuid, $2::int)))[2] as s`,
    [id, maxChunks],
  )
  await pg.query('begin')
  const plan = await pg.query<{ 'QUERY PLAN': string }>(`explain (analyze, buffers) ${rows[0]!.s}`)
  await pg.query('rollback')
  console.log(plan.rows.map((r) => r['QUERY PLAN']).join('\n'))
  await pg.query('delete from public.documents where id = $1', [id])
}

async function calls(chunks: Chunk[], maxChunks: number, via: 'rest' | 'sql') {
  const id = await indexing(chunks)
  const ms: number[] = []
  for (;;) {
    const started = performance.now()
    let n: number
    if (via === 'rest') {
      const { data, error } = await admin.rpc('count_document_stats', {
        document_id: id,
        max_chunks: maxChunks,
      })
      if (error) throw new Error(error.message)
      n = data as number
    } else {
      const { rows } = await pg.query<{ n: number }>(
        'select public.count_document_stats($1, $2) as n',
        [id, maxChunks],
      )
      n = rows[0]!.n
    }
    ms.push(Math.round(performance.now() - started))
    if (n < maxChunks) break
  }
  await pg.query('delete from public.documents where id = $1', [id])
  return ms
}

try {
  for (const target of targets) {
    const chunks = await chunksOf(target)
    console.log(`counting ${target}, ${chunks.length} chunks`)
    for (const maxChunks of budgets.length ? budgets : [200]) {
      if (process.env.EXPLAIN) await explain(chunks, maxChunks)
      for (let round = 1; round <= 2; round++)
        for (const via of ['rest', 'sql'] as const) {
          const ms = await calls(chunks, maxChunks, via)
          console.log(`max_chunks ${maxChunks} round ${round} ${via}: ${JSON.stringify(ms)} ms`)
        }
    }
  }
} finally {
  await stack.stop()
}
