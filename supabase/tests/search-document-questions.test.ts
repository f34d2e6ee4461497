import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { clientFor, startStack } from './stack.ts'
import { addReadyDocument, createPeople, createWorld, type People } from './world.ts'

// A search kept to one document weighs what the query asks (its sentences ending in a question
// mark) above the instructions around it, unless the document's headings hold an instruction's
// term (20260101007000_search_document_question_sentences.sql), through the search function as
// the browser calls it.
const stack = await startStack()
afterAll(() => stack.stop())

type Row = { chunk_id: string; score: number }

let people: People
beforeAll(async () => {
  people = await createPeople(stack)
})

async function library() {
  const { workspaceId } = await createWorld(stack, people)
  const viewer = clientFor(stack, people.viewer)
  const add = (title: string, texts: string[]) =>
    addReadyDocument(stack, people.editor, workspaceId, title, texts)
  const search = async (query: string, documentId: string) => {
    const { data, error } = await viewer.functions.invoke<{ results: Row[] }>('search', {
      body: { workspace_id: workspaceId, query, document_ids: [documentId], limit: 10 },
    })
    expect(error).toBeNull()
    return data!.results
  }
  return { add, search }
}

// Passages that hold none of the queries' terms: each term is then rare in the document.
const filler = [
  'The ferry leaves the north quay at noon and returns before dusk.',
  'Volunteers repaint the boathouse every other summer.',
  'Anglers need a permit from the lodge for the upper pools.',
  'The footpath along the dam is closed during high winds.',
]

describe('search kept to one document, a question wrapped in instructions', () => {
  it('ranks the passage about what is asked above one matching the instructions', async () => {
    const { add, search } = await library()
    const report = await add('Water board report', [
      'Reservoir levels fell through the dry season and recovered by winter.',
      'Trustees must explain the state of each account and round sums to two places.',
      ...filler,
    ])
    const asked = 'How did reservoir levels change?'
    const wrapping =
      'If levels are not something a warden would track, state that, explain why and round to two places.'
    // The instructions alone find the trustees' passage: it holds more of the query's terms.
    expect((await search(wrapping, report.documentId))[0]!.chunk_id).toBe(report.chunkIds[1])

    const results = await search(`${asked} ${wrapping}`, report.documentId)
    expect(results.map((r) => r.chunk_id).slice(0, 2)).toEqual([
      report.chunkIds[0],
      report.chunkIds[1],
    ])
  })

  it("keeps an instruction's term at full weight when the document's headings hold it", async () => {
    const { add, search } = await library()
    const accounts = (title: string) =>
      add('Water board accounts', [
        `${title}\nWater rates 410 385\nGrants 55 60\nTotal receipts 465 445`,
        'The board will take up the rates at its March meeting.',
        'Receipts from the kiosk rose with the summer visitors.',
        ...filler,
      ])
    const query = 'How much did the board take in? Answer from the statement of receipts.'
    // "Statement" and "receipts" are only in the instruction. The table's title in capitals is
    // a heading (chunk_heading_terms) that holds both: they keep their weight.
    const titled = await accounts('STATEMENT OF RECEIPTS')
    expect((await search(query, titled.documentId))[0]!.chunk_id).toBe(titled.chunkIds[0])
    // Written as a plain line it heads nothing: the instruction's terms weigh half, and the
    // passage holding the question's own terms comes first.
    const plain = await accounts('Statement of receipts')
    expect((await search(query, plain.documentId))[0]!.chunk_id).toBe(plain.chunkIds[1])
  })

  it('weighs every term of a query without a question mark as a question', async () => {
    const { add, search } = await library()
    const report = await add('Water board minutes', [
      'Reservoir levels fell through the dry season and recovered by winter.',
      'Trustees must explain the state of each account and round sums to two places.',
      ...filler,
    ])
    const scores = async (query: string) =>
      (await search(query, report.documentId)).map((r) => [r.chunk_id, r.score])
    const keywords = await scores('reservoir levels explain the state')
    expect(await scores('reservoir levels explain the state?')).toEqual(keywords)
    // Asked first, the same words are weighed otherwise.
    expect(await scores('Reservoir levels? Explain the state.')).not.toEqual(keywords)
  })

  it("reads an abbreviation's dots inside a question as part of it, not a sentence's end", async () => {
    const { add, search } = await library()
    const report = await add('Water board minutes', [
      'U.S. reservoir levels fell through the dry season and recovered by winter.',
      'Trustees must explain the state of each account and round sums to two places.',
      ...filler,
    ])
    const scores = async (query: string) =>
      (await search(query, report.documentId)).map((r) => [r.chunk_id, r.score])
    // 20260101007400: the question is whole, so it weighs as the same words asked alone.
    const asked = await scores('How did U.S. reservoir levels change?')
    expect(await scores('How did U.S. reservoir levels change? Explain the state.')).not.toEqual(
      asked,
    )
    expect(asked).toEqual(await scores('How did U.S. reservoir levels change'))
    // A sentence that ends in a decimal still ends there.
    expect(await scores('Round to 2.5. How did U.S. reservoir levels change?')).not.toEqual(
      await scores('Round to 2.5 how did U.S. reservoir levels change'),
    )
  })
})
