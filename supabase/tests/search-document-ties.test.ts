import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { clientFor, startStack } from './stack.ts'
import { addReadyDocument, createPeople, createWorld, type People } from './world.ts'

// A search kept to one document ranks passages of equal score in the document's own order,
// not by their random ids (20260101007410_search_document_ties_in_order.sql): two imports of
// the same file rank it alike.
const stack = await startStack()
afterAll(() => stack.stop())

let people: People
beforeAll(async () => {
  people = await createPeople(stack)
})

describe('search kept to one document, passages of equal score', () => {
  it('come in the order the document has them', async () => {
    const { workspaceId } = await createWorld(stack, people)
    const notice = 'Harbour dues are paid at the gate before the tide turns.'
    const { documentId, chunkIds } = await addReadyDocument(
      stack,
      people.editor,
      workspaceId,
      'Harbour notices',
      [
        'The ferry leaves the north quay at noon.',
        ...Array.from({ length: 8 }, () => notice),
        'Anglers need a permit from the lodge.',
      ],
    )
    const { data, error } = await clientFor(stack, people.viewer).functions.invoke<{
      results: { chunk_id: string; score: number }[]
    }>('search', {
      body: { workspace_id: workspaceId, query: 'harbour dues', document_ids: [documentId] },
    })
    expect(error).toBeNull()
    const results = data!.results
    // Eight ties: one order of ids in 40,320 would pass by chance.
    expect(new Set(results.map((r) => r.score)).size).toBe(1)
    expect(results.map((r) => r.chunk_id)).toEqual(chunkIds.slice(1, 9))
  })
})
