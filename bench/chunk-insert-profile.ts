// Where a short chunk insert's time goes (issue #17): the chunks of a few filings inserted
// in the importer's batches (BATCH_ROWS / BATCH_CHARS) into a fresh database, as they are, then
// without the term statistics trigger, then without the GIN index as well; beside them the
// lexemes computed alone (the generated columns' expression) and, for the last document of
// each run, counting its chunks into the statistics when it turns ready. Alternated, as the
// machine is shared. Run: node bench/chunk-insert-profile.ts [files…]
import { readFile } from 'node:fs/promises'
import { basename, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { chunkBatches } from '../packages/core/src/ingest/chunk-batches.ts'
import { processFile } from '../packages/core/src/ingest/process-file.ts'
import { startStack } from '../supabase/tests/stack.ts'
import { createPeople, createWorld } from '../supabase/tests/world.ts'

const root = fileURLToPath(new URL('..', import.meta.url))
const names = process.argv.slice(2)
const files = (names.length ? names : ['AMCOR_2023_10K.pdf', 'BESTBUY_2019_10K.pdf']).map((name) =>
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
console.log(`${files.length} files, ${chunks} chunks`)

const stack = await startStack()
const people = await createPeople(stack)
const pg = stack.db.pg
const timed = async (sql: string, params: unknown[] = []) => {
  const started = performance.now()
  await pg.query(sql, params)
  return performance.now() - started
}

type Setup = 'as is' | 'no stats trigger' | 'no trigger, no GIN'
async function run(setup: Setup) {
  const { workspaceId } = await createWorld(stack, people)
  const triggers = setup === 'as is' ? 'enable' : 'disable'
  await pg.query(`alter table public.chunks ${triggers} trigger track_chunk_stats_insert`)
  if (setup === 'no trigger, no GIN')
    await pg.query('drop index if exists public.chunks_lexemes_idx')
  const holds: number[] = []
  let lastDoc = ''
  for (const doc of docs) {
    const { rows } = await pg.query<{ id: string }>(
      `insert into public.documents (workspace_id, title, status, stage)
       values ($1, 'profile', 'processing', 'indexing') returning id`,
      [workspaceId],
    )
    lastDoc = rows[0]!.id
    for (const batch of chunkBatches(doc, (c) => c.content.length)) {
      holds.push(
        await timed(
          `insert into public.chunks (document_id, workspace_id, ordinal, content, heading_path,
             page_start, page_end)
           select $1, $2, r.ordinal, r.content, r.heading_path, r.page_start, r.page_end
           from jsonb_to_recordset($3::jsonb)
             as r(ordinal int, content text, heading_path text[], page_start int, page_end int)`,
          [
            lastDoc,
            workspaceId,
            JSON.stringify(
              batch.map((c) => ({
                ordinal: c.ordinal,
                content: c.content,
                heading_path: c.headingPath,
                page_start: c.pageStart,
                page_end: c.pageEnd,
              })),
            ),
          ],
        ),
      )
    }
  }
  // Reading and grouping the document's terms alone, then the whole count as it turns ready.
  const read = await timed(
    `select count(*) from (select t.lexeme from public.chunks c cross join lateral unnest(c.lexemes) t
     where c.document_id = $1 group by 1) t`,
    [lastDoc],
  )
  const ready = await timed(`update public.documents set status = 'ready' where id = $1`, [lastDoc])
  await pg.query(`alter table public.chunks enable trigger track_chunk_stats_insert`)
  if (setup === 'no trigger, no GIN')
    await pg.query(
      'create index chunks_lexemes_idx on public.chunks using gin (lexemes) with (fastupdate = off)',
    )
  await pg.query('delete from public.workspaces where id = $1', [workspaceId])
  const total = holds.reduce((a, b) => a + b, 0)
  return { total, max: Math.max(...holds), inserts: holds.length, read, ready }
}

const lexemesAlone = async () => {
  const contents = docs.flat().map((c) => ({ content: c.content, heading_path: c.headingPath }))
  return timed(
    `select sum(length(public.bm25_lexemes(public.chunk_index_text(r.heading_path, r.content))))
     from jsonb_to_recordset($1::jsonb) as r(content text, heading_path text[])`,
    [JSON.stringify(contents)],
  )
}

try {
  const setups: Setup[] = ['as is', 'no stats trigger', 'no trigger, no GIN']
  for (let round = 1; round <= 2; round++) {
    for (const setup of setups) {
      const r = await run(setup)
      console.log(
        `round ${round} ${setup.padEnd(20)} ${r.inserts} inserts: ${r.total.toFixed(0)} ms ` +
          `(${((r.total / chunks) * 1000).toFixed(0)} µs/chunk, longest ${r.max.toFixed(0)} ms); ` +
          `last document's terms read ${r.read.toFixed(0)} ms, counted as it turns ready ${r.ready.toFixed(0)} ms`,
      )
    }
    console.log(`round ${round} lexemes alone: ${(await lexemesAlone()).toFixed(0)} ms`)
  }
} finally {
  await stack.stop()
}
