import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { clientFor, startStack } from './stack.ts'
import { createPeople, createWorld, type People } from './world.ts'

// A search's ranking is a function of the query and the library (issue #15,
// 20260101006300_search_first_pool_and_ties.sql): not of the documents' ids, nor of the way
// localbase runs the call, nor of when ANALYZE last ran.
const stack = await startStack()
afterAll(() => stack.stop())

let people: People
let workspaceId: string
const twins: string[] = []
const leaders: string[] = []

const passage = 'Otter dues were paid at the harbour gate.'

/** A ready document of two passages, written as an import writes one. */
async function addDocument(title: string): Promise<string> {
  const { rows } = await stack.db.pg.query<{ id: string }>(
    `insert into public.documents (workspace_id, title, mime_type, status, stage, chunk_count)
     values ($1, $2, 'text/plain', 'ready', 'ready', 2) returning id`,
    [workspaceId, title],
  )
  const id = rows[0]!.id
  await stack.db.pg.query(
    `insert into public.document_texts (document_id, workspace_id, text) values ($1, $2, '')`,
    [id, workspaceId],
  )
  await stack.db.pg.query(
    `insert into public.chunks (document_id, workspace_id, ordinal, content)
     values ($1, $2, 0, $3), ($1, $2, 1, 'The ledger was closed for the winter.')`,
    [id, workspaceId, passage],
  )
  return id
}

beforeAll(async () => {
  people = await createPeople(stack)
  workspaceId = (await createWorld(stack, people)).workspaceId
  // Three documents whose titles name two of the query's words score best as documents;
  // four alike name one, and tie for the fourth to the seventh place. Every document holds
  // the same passage, so a passage's score differs only by its document's boost.
  for (const title of ['Otter harbour ledger', 'Otter harbour book', 'Otter harbour roll'])
    leaders.push(await addDocument(title))
  for (let i = 0; i < 4; i++) twins.push(await addDocument('Otter notes'))
}, 60_000)

type Row = { chunk_id: string; document_id: string; score: number; bm25: number }

/**
 * The test query as the viewer. `rollback` asks for a rolled-back transaction (tx=rollback),
 * which takes localbase's transaction path rather than its one-job read-only path.
 */
async function search(options: { rollback?: boolean } = {}): Promise<Row[]> {
  const call = clientFor(stack, people.viewer).rpc('search_chunks', {
    workspace_id: workspaceId,
    query: 'otter harbour dues',
    match_count: 20,
    snippets: false,
  })
  const { data, error } = await (options.rollback ? call.rollback() : call)
  if (error) throw new Error(error.message)
  return data as Row[]
}

/** The given documents' passages' scores, distinct. */
const scoresOf = (rows: Row[], documents: string[]) => [
  ...new Set(rows.filter((r) => documents.includes(r.document_id)).map((r) => r.score)),
]

describe('search_chunks ties', () => {
  it('gives documents of equal score equal treatment, whatever their ids', async () => {
    const rows = await search()
    expect(rows).toHaveLength(7)
    // The four alike are tied across the fifth boosted place: none is boosted, rather than the
    // two whose ids sort first. Their passages score alike.
    const twinScores = scoresOf(rows, twins)
    expect(twinScores).toHaveLength(1)
    // The three better documents are still boosted: the same passage scores higher in them.
    const leaderScores = scoresOf(rows, leaders)
    expect(leaderScores).toHaveLength(1)
    expect(leaderScores[0]!).toBeGreaterThan(twinScores[0]! + 0.1)
    // Exactly equal scores are ordered by chunk id, the only order left.
    const twinRows = rows.filter((r) => twins.includes(r.document_id) && r.score === twinScores[0])
    expect(twinRows.map((r) => r.chunk_id)).toEqual(twinRows.map((r) => r.chunk_id).sort())
  })

  it('boosts none of the documents tied for the first place when more than five are', async () => {
    // Two more alike: six tied at the top, so none is chosen over the others by its id.
    const extra = [await addDocument('Otter notes'), await addDocument('Otter notes')]
    const leaderIds = leaders.splice(0)
    try {
      await stack.db.pg.query('update public.documents set status = $2 where id = any ($1)', [
        leaderIds,
        'failed',
      ])
      const rows = await search()
      expect(rows.map((r) => r.document_id).sort()).toEqual([...twins, ...extra].sort())
      expect(scoresOf(rows, [...twins, ...extra])).toHaveLength(1)
    } finally {
      await stack.db.pg.query('update public.documents set status = $2 where id = any ($1)', [
        leaderIds,
        'ready',
      ])
      await stack.db.pg.query('delete from public.documents where id = any ($1)', [extra])
      leaders.push(...leaderIds)
    }
  })

  it('are the same through the read-only path, a transaction, and after ANALYZE', async () => {
    const readOnly = await search()
    const transaction = await search({ rollback: true })
    await stack.db.pg.exec('analyze')
    const analyzed = await search()
    expect(transaction).toEqual(readOnly)
    expect(analyzed).toEqual(readOnly)
  })
})
