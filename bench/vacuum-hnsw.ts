import { readFileSync } from 'node:fs'
import { ingestFile } from '../packages/core/src/ingest/ingest-file.ts'
import { sharedData } from '../packages/core/src/testing/shared-data.ts'
import { clientFor, startStack } from '../supabase/tests/stack.ts'
import { createPeople, createWorld } from '../supabase/tests/world.ts'

// What `vacuum public.chunks` holds PGlite for after every vector of a filing is replaced
// (a promotion or an outright model change), and what the same cleanup holds when done in
// another order. A filing is imported, given 1,536-dimension vectors, then, round after
// round, new ones, each way in turn (A B C A B C, the machine being shared):
//   in place   the new vectors written over the old, then the vacuum (what upkeep does now);
//   dropped    the old vectors nulled and vacuumed away first, then the new ones written and
//              vacuumed;
//   rebuilt    written over the old, then the HNSW index rebuilt (REINDEX), then the vacuum.
// The vectors are random, different for each model as real models' are: the fake provider
// gives every model the same vector for a text, and pgvector files a rewritten row's equal
// vector under the graph element it already has, which leaves the vacuum nothing to repair.
// Prints each statement's hold in ms, one JSON line per round and way.
//   node bench/vacuum-hnsw.ts [rounds, default 2] [file in financebench-pdfs]

const rounds = Number(process.argv[2] ?? 2)
const file = process.argv[3] ?? 'AMERICANEXPRESS_2022_10K.pdf'
const stack = await startStack()
// Its schedule would vacuum between the steps measured here.
await stack.upkeep.stop()
const query = (sql: string, values: unknown[] = []) => stack.db.pg.query(sql, values)
/** How long `sql` held the database, from when it had the connection (as upkeep times it). */
const hold = (sql: string) =>
  stack.db.pg.withConnection(async (connection) => {
    const started = performance.now()
    await connection.exec(sql)
    return Math.round(performance.now() - started)
  })

try {
  const people = await createPeople(stack)
  const { workspaceId } = await createWorld(stack, people)
  const bytes = new Uint8Array(readFileSync(new URL(`financebench-pdfs/${file}`, sharedData)))
  const imported = await ingestFile(clientFor(stack, people.editor), {
    workspaceId,
    bytes,
    fileName: file,
  })
  if (imported.status !== 'ready') throw new Error(JSON.stringify(imported))
  await query('select public.ensure_embedding_index(1536)')
  const write = () =>
    query(
      `update public.chunks c
       set embedding = (select array_agg(random()::real) from generate_series(1, 1536) g
                        where g > 0 * length(c.content))::extensions.vector
       where c.workspace_id = $1`,
      [workspaceId],
    )
  const drop = () =>
    query('update public.chunks set embedding = null where workspace_id = $1', [workspaceId])
  await write()
  await hold('vacuum public.chunks')
  console.log(`${file}: ${imported.chunkCount} chunks`)

  const ways: Record<string, () => Promise<Record<string, number>>> = {
    'in place': async () => {
      await write()
      return { vacuum: await hold('vacuum public.chunks') }
    },
    dropped: async () => {
      await drop()
      const vacuumDropped = await hold('vacuum public.chunks')
      await write()
      return { vacuumDropped, vacuum: await hold('vacuum public.chunks') }
    },
    rebuilt: async () => {
      await write()
      const reindex = await hold('reindex index public.chunks_embedding_1536_idx')
      return { reindex, vacuum: await hold('vacuum public.chunks') }
    },
  }
  for (let round = 1; round <= rounds; round++) {
    for (const [way, run] of Object.entries(ways)) {
      const holds = await run()
      console.log(
        JSON.stringify({ round, way, ...holds, longest: Math.max(...Object.values(holds)) }),
      )
    }
  }
} finally {
  await stack.stop()
}
