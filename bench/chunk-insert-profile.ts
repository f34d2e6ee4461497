// Where an import's database time goes, and its longest statement, by how the term statistics
// are counted (issue #17): a filing's chunks inserted in the importer's batches (BATCH_ROWS /
// BATCH_CHARS) into one fresh database, counted per insert (the document ready while its
// chunks go in: as every import was counted before 20260101005700), per document in the
// update that makes it ready, or per document 200 chunks at a time (count_document_stats,
// then the update); and as a reference, the same with no GIN index, the lexemes computed alone, and scratch inserts with the lexemes as generated
// columns (as before 20260101005700) or set by its trigger. Alternated, as the machine is
// shared.
// Run: node bench/chunk-insert-profile.ts [filing.pdf …]  (default: the AmEx 10-K, 553 chunks)
import { readFile } from 'node:fs/promises'
import { basename, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { chunkBatches } from '../packages/core/src/ingest/chunk-batches.ts'
import { processFile } from '../packages/core/src/ingest/process-file.ts'
import { startStack } from '../supabase/tests/stack.ts'
import { createPeople, createWorld } from '../supabase/tests/world.ts'

const root = fileURLToPath(new URL('..', import.meta.url))
const names = process.argv.slice(2)
const files = (names.length ? names : ['AMERICANEXPRESS_2022_10K.pdf']).map((name) =>
  join(root, '../shared/data/financebench-pdfs', name),
)
const docs = await Promise.all(
  files.map(async (path) => {
    const processed = await processFile({
      bytes: new Uint8Array(await readFile(path)),
      fileName: basename(path),
    })
    return processed.chunks
  }),
)
const chunks = docs.flat().length
console.log(`${files.length} file(s), ${chunks} chunks`)

const stack = await startStack()
const people = await createPeople(stack)
const pg = stack.db.pg
// count_document_stats as the service role would call it.
await pg.query(`select set_config('request.jwt.claims', '{"role":"service_role"}', false)`)
const timed = async (sql: string, params: unknown[] = []) => {
  const started = performance.now()
  const { rows } = await pg.query<Record<string, unknown>>(sql, params)
  return { ms: performance.now() - started, rows }
}

const setups = [
  'per insert (before)',
  'per document, one update',
  'per document, in parts',
  'in parts, no GIN index',
] as const
type Setup = (typeof setups)[number]

/**
 * Row versions written to chunk_term_stats so far (inserted and updated): every update leaves
 * a dead row for vacuum.
 */
async function rowVersions() {
  await pg.query('select pg_stat_force_next_flush()')
  const { rows } = await pg.query<{ n: string }>(
    `select n_tup_ins + n_tup_upd as n from pg_stat_user_tables
     where relid = 'public.chunk_term_stats'::regclass`,
  )
  return Number(rows[0]!.n)
}

async function run(setup: Setup) {
  const { workspaceId } = await createWorld(stack, people)
  const noGin = setup === 'in parts, no GIN index'
  // Merging the index is its cost too: the trigger rests while the index is gone.
  if (noGin)
    await pg.exec(`drop index public.chunks_lexemes_idx;
      alter table public.chunks disable trigger merge_chunk_lexemes`)
  const inserts: number[] = []
  const counts: number[] = []
  const before = await rowVersions()
  for (const doc of docs) {
    const status = setup === 'per insert (before)' ? 'ready' : 'processing'
    const { rows } = await pg.query<{ id: string }>(
      `insert into public.documents (workspace_id, title, status, stage)
       values ($1, 'profile', $2, 'indexing') returning id`,
      [workspaceId, status],
    )
    const id = rows[0]!.id
    for (const batch of chunkBatches(doc, (c) => c.content.length)) {
      const rows = batch.map((c) => ({
        ordinal: c.ordinal,
        content: c.content,
        heading_path: c.headingPath,
        page_start: c.pageStart,
        page_end: c.pageEnd,
      }))
      const insert = await timed(
        `insert into public.chunks (document_id, workspace_id, ordinal, content, heading_path,
           page_start, page_end)
         select $1, $2, r.ordinal, r.content, r.heading_path, r.page_start, r.page_end
         from jsonb_to_recordset($3::jsonb)
           as r(ordinal int, content text, heading_path text[], page_start int, page_end int)`,
        [id, workspaceId, JSON.stringify(rows)],
      )
      inserts.push(insert.ms)
    }
    if (setup !== 'per insert (before)' && setup !== 'per document, one update') {
      for (;;) {
        const call = await timed('select public.count_document_stats($1) as n', [id])
        counts.push(call.ms)
        if (Number(call.rows[0]!.n) < 200) break
      }
    }
    if (status !== 'ready')
      counts.push(
        (await timed(`update public.documents set status = 'ready' where id = $1`, [id])).ms,
      )
  }
  if (noGin)
    await pg.exec(`create index chunks_lexemes_idx on public.chunks using gin (lexemes)
      with (fastupdate = on);
      alter table public.chunks enable trigger merge_chunk_lexemes`)
  await pg.query('delete from public.workspaces where id = $1', [workspaceId])
  const written = (await rowVersions()) - before
  const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0)
  return {
    total: sum(inserts) + sum(counts),
    inserts: inserts.length,
    longestInsert: Math.max(...inserts),
    counts: counts.map((ms) => Math.round(ms)),
    written,
  }
}

/**
 * The lexemes as two generated columns (each parses the text) against one trigger
 * (index_chunk, parsing once), on scratch tables without indexes: the same batches into each.
 */
async function lexemeColumns() {
  const expression = 'public.bm25_lexemes(public.chunk_index_text(heading_path, content))'
  await pg.query(`create temporary table generated_lexemes (heading_path text[], content text,
    lexemes tsvector generated always as (${expression}) stored,
    lexeme_count int generated always as (public.tsvector_token_count(${expression})) stored)`)
  await pg.query(`create temporary table trigger_lexemes (heading_path text[], content text,
    lexemes tsvector, lexeme_count int)`)
  await pg.query(`create trigger index_chunk before insert on trigger_lexemes
    for each row execute function public.index_chunk()`)
  const ms: Record<string, number> = { generated_lexemes: 0, trigger_lexemes: 0 }
  for (const batch of chunkBatches(docs.flat(), (c) => c.content.length)) {
    const rows = JSON.stringify(
      batch.map((c) => ({ content: c.content, heading_path: c.headingPath })),
    )
    for (const table of Object.keys(ms))
      ms[table]! += (
        await timed(
          `insert into ${table} (heading_path, content) select r.heading_path, r.content
           from jsonb_to_recordset($1::jsonb) as r(content text, heading_path text[])`,
          [rows],
        )
      ).ms
  }
  await pg.query('drop table generated_lexemes, trigger_lexemes')
  return ms
}

const lexemesAlone = async () => {
  const contents = docs.flat().map((c) => ({ content: c.content, heading_path: c.headingPath }))
  const { ms } = await timed(
    `select sum(length(public.bm25_lexemes(public.chunk_index_text(r.heading_path, r.content))))
     from jsonb_to_recordset($1::jsonb) as r(content text, heading_path text[])`,
    [JSON.stringify(contents)],
  )
  return ms
}

try {
  const rounds = Number(process.env.BENCH_ROUNDS ?? 2)
  for (let round = 1; round <= rounds; round++) {
    for (const setup of setups) {
      const r = await run(setup)
      console.log(
        `round ${round} ${setup.padEnd(27)} ${r.total.toFixed(0).padStart(6)} ms ` +
          `(${((r.total / chunks) * 1000).toFixed(0)} µs/chunk): ${r.inserts} inserts, longest ` +
          `${r.longestInsert.toFixed(0)} ms; counting statements ${JSON.stringify(r.counts)} ms; ` +
          `${r.written} chunk_term_stats row versions`,
      )
    }
    console.log(`round ${round} lexemes alone: ${(await lexemesAlone()).toFixed(0)} ms`)
    const columns = await lexemeColumns()
    console.log(
      `round ${round} inserts without indexes, lexemes as generated columns ` +
        `${columns.generated_lexemes!.toFixed(0)} ms, set by a trigger ${columns.trigger_lexemes!.toFixed(0)} ms`,
    )
  }
} finally {
  await stack.stop()
}
