import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { clientFor, startStack } from './stack.ts'
import { addReadyDocument, createPeople, createWorld, type People } from './world.ts'

// What the query's own structure adds to the lexical score: the terms it repeats and the
// terms it writes together (20260101002800_search_ranking.sql).
const stack = await startStack()
afterAll(() => stack.stop())

let people: People
beforeAll(async () => {
  people = await createPeople(stack)
})

type Row = { chunk_id: string; score: number; bm25: number }

/** A workspace of its own holding one document of these passages, and a search over it. */
async function library(texts: string[]) {
  const { workspaceId } = await createWorld(stack, people)
  const { chunkIds } = await addReadyDocument(stack, people.editor, workspaceId, 'Notes', texts)
  const search = async (query: string, matchCount = 10) => {
    const { data, error } = await clientFor(stack, people.viewer).rpc('search_chunks', {
      workspace_id: workspaceId,
      query,
      match_count: matchCount,
      snippets: false,
    })
    expect(error).toBeNull()
    return (data as Row[]).map((row) => ({ ...row, n: chunkIds.indexOf(row.chunk_id) }))
  }
  return { search }
}

describe('query term frequency', () => {
  it('weighs a term the query repeats by the square root of its count', async () => {
    // Same length, each term in one passage: alone, the two passages would tie.
    const { search } = await library(['walrus tusk ice', 'penguin beak ice', 'seal fin water'])
    const once = await search('walrus penguin')
    expect(once[0]!.score).toBeCloseTo(once[1]!.score, 9)
    const twice = await search('walrus penguin, and walrus again')
    expect(twice.map((r) => r.n).slice(0, 2)).toEqual([0, 1])
    expect(twice[0]!.score / twice[1]!.score).toBeCloseTo(Math.SQRT2, 6)
  })
})

describe('query pairs', () => {
  it('rank the passage holding two query words side by side above one holding them apart', async () => {
    // The same words, so the same BM25: only their order and distance differ.
    const texts = ['cedar pine maple birch', 'pine birch cedar maple', 'oak elm ash yew']
    const { search } = await library(texts)
    const rows = await search('cedar pine')
    expect(rows.map((r) => r.n)).toEqual([0, 1])
    expect(rows[0]!.bm25).toBeCloseTo(rows[1]!.bm25, 9)
    // The pair adds its rarer term's weight once more: both hold two passages of three.
    const idf = Math.log(1 + (3 - 2 + 0.5) / (2 + 0.5))
    expect(rows[0]!.score - rows[0]!.bm25).toBeCloseTo(idf, 6)
    expect(rows[1]!.score).toBe(rows[1]!.bm25)
  })

  it('keep the distance the query puts between them, stop words included', async () => {
    const texts = [
      'statement of income for the year',
      'income statement for the year',
      'statement income for the year',
    ]
    const { search } = await library(texts)
    const rows = await search('statement of income')
    expect(rows[0]!.n).toBe(0)
    const extra = rows.map((r) => [r.n, r.score - r.bm25 > 1e-9])
    expect(Object.fromEntries(extra)).toEqual({ 0: true, 1: false, 2: false })
  })

  it('lift a passage from below the results returned', async () => {
    // By BM25 alone the longer passage's "quick" and "ratio" lose to the shorter one's.
    const texts = ['ratio notes quick', 'the quick ratio rose as current assets grew', 'oak elm']
    const { search } = await library(texts)
    const all = await search('quick ratio')
    expect(all.find((r) => r.n === 0)!.bm25).toBeGreaterThan(all.find((r) => r.n === 1)!.bm25)
    const top = await search('quick ratio', 1)
    expect(top.map((r) => r.n)).toEqual([1])
  })
})
