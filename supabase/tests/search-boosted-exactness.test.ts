import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { clientFor, startStack } from './stack.ts'
import { createPeople, createWorld, type People } from './world.ts'

// The boosted documents' passages (20260101003800_search_boosted_rounds.sql: found by rounds,
// not all scored) against brute force: the document score of every document's context, the
// five best documents lending theirs to their passages, the pool of at least 30 by the sum.
const stack = await startStack()
afterAll(() => stack.stop())

let people: People
beforeAll(async () => {
  people = await createPeople(stack)
})

/** A deterministic generator, so every run builds the same corpus. */
function random(seed: number) {
  return () => (seed = (Math.imul(seed, 1_664_525) + 1_013_904_223) >>> 0) / 2 ** 32
}

// Made-up words of letters only (each its own lexeme, as retrieval-filters.test.ts checks),
// a few common and most rare.
const vocabulary = Array.from(
  { length: 40 },
  (_, i) => `zq${'bdfgkmptvx'[i % 10]}${'aeio'[Math.floor(i / 10)]}`,
)
const [k1, b] = [1.5, 0.75] // exact as Postgres reals

type Doc = { id: string; context: string[]; chunks: { id: string; words: string[] }[] }

/** BM25 of `words` for a query's terms, `idf` of each term given. */
function bm25(terms: Map<string, number>, words: string[], avg: number) {
  let total = 0
  for (const [term, idf] of terms) {
    const tf = words.filter((w) => w === term).length
    if (tf) total += (idf * tf * (k1 + 1)) / (tf + k1 * (1 - b + (b * words.length) / avg))
  }
  return total
}

/** The pool search_chunks ranks: each passage's BM25, plus its document's score if boosted. */
function expectedPool(all: Doc[], docs: Doc[], query: string[]) {
  const chunks = all.flatMap((d) => d.chunks)
  const avg = chunks.reduce((sum, c) => sum + c.words.length, 0) / chunks.length
  const idf = (n: number, total: number) => Math.log(1 + (total - n + 0.5) / (n + 0.5))
  const distinct = [...new Set(query)]
  // Passages: idf over the workspace's passages, times the square root of the query count.
  const chunkTerms = new Map(
    distinct
      .map((t) => [t, chunks.filter((c) => c.words.includes(t)).length] as const)
      .filter(([, n]) => n > 0)
      .map(([t, n]) => [t, idf(n, chunks.length) * Math.sqrt(query.filter((w) => w === t).length)]),
  )
  // Documents: BM25 over the contexts of the documents searched, a context's length its
  // number of distinct lexemes, times the share a passage leaves unsaid.
  const contextLength = (d: Doc) => new Set(d.context).size
  const docAvg = Math.max(docs.reduce((s, d) => s + contextLength(d), 0) / docs.length, 1)
  const docTerms = new Map(
    distinct
      .map((t) => [t, docs.filter((d) => d.context.includes(t)).length] as const)
      .filter(([, n]) => n > 0)
      .map(([t, n]) => [t, idf(n, docs.length)]),
  )
  const docScore = (d: Doc) => {
    let total = 0
    for (const [term, w] of docTerms) {
      const tf = d.context.filter((x) => x === term).length
      if (tf) total += (w * tf * (k1 + 1)) / (tf + k1 * (1 - b + (b * contextLength(d)) / docAvg))
    }
    return (1 - 1 / d.chunks.length) * total
  }
  // A document is boosted when at most five score at least as much (tied documents alike:
  // 20260101006300_search_first_pool_and_ties.sql).
  const scored = docs.map((d) => ({ id: d.id, s: docScore(d) })).filter((d) => d.s > 0)
  const boosted = new Map(
    scored.filter((d) => scored.filter((o) => o.s >= d.s).length <= 5).map((d) => [d.id, d.s]),
  )
  const pool = docs
    .flatMap((d) =>
      d.chunks.map((c) => {
        const score = bm25(chunkTerms, c.words, avg)
        return {
          id: c.id,
          score: score > 0 && boosted.has(d.id) ? boosted.get(d.id)! + score : score,
        }
      }),
    )
    .filter((r) => r.score > 0)
    .sort((x, y) => y.score - x.score || (x.id < y.id ? -1 : 1))
  return { pool, boosted: boosted.size }
}

describe('boosted documents', () => {
  it('give exactly the brute-force pool, the whole workspace and filtered to one document', async () => {
    const rand = random(11)
    const pick = () => vocabulary[Math.floor(vocabulary.length * rand() ** 2.5)]!
    const words = (min: number, spread: number) =>
      Array.from({ length: min + Math.floor(rand() * spread) }, pick)
    const { workspaceId } = await createWorld(stack, people)
    // Nine documents of 15 to 40 passages, each with a context of 3 to 10 words: more than
    // five match most queries, so the five boosted are chosen among them.
    const all: Doc[] = []
    for (let d = 0; d < 9; d++) {
      const chunks = Array.from({ length: 15 + Math.floor(rand() * 26) }, () => words(3, 30))
      const context = words(3, 8)
      // As an import stores a document (the context needs its passage count, as there).
      const inserted = await stack.db.pg.query<{ id: string }>(
        `insert into public.documents (workspace_id, title, mime_type, status, stage, chunk_count)
         values ($1, $2, 'text/plain', 'ready', 'ready', $3) returning id`,
        [workspaceId, context[0], chunks.length],
      )
      const id = inserted.rows[0]!.id
      await stack.db.pg.query(
        `insert into public.document_texts (document_id, workspace_id, text, opening)
         values ($1, $2, '', $3)`,
        [id, workspaceId, context.slice(1).join(' ')],
      )
      const ids = await stack.db.pg.query<{ id: string }>(
        `insert into public.chunks (document_id, workspace_id, ordinal, content)
         select $1, $2, o - 1, c from unnest($3::text[]) with ordinality as u (c, o)
         returning id, ordinal`,
        [id, workspaceId, chunks.map((c) => c.join(' '))],
      )
      all.push({
        id,
        context,
        chunks: ids.rows.map((r, i) => ({ id: r.id, words: chunks[i]! })),
      })
    }

    const search = async (query: string[], matchCount: number, documentIds?: string[]) => {
      const { data, error } = await clientFor(stack, people.viewer).rpc('search_chunks', {
        workspace_id: workspaceId,
        query: query.join(' '),
        match_count: matchCount,
        document_ids: documentIds,
        k1,
        b,
        snippets: false,
      })
      expect(error).toBeNull()
      // `bm25` is the pool's score: BM25, plus the document's for a boosted one.
      return (data as { bm25: number }[])
        .map((r) => r.bm25)
        .sort((x, y) => y - x)
        .map((s) => s.toFixed(9))
    }
    // 2 to 12 terms; with pairs (the query's words side by side) and without (one word).
    let fiveBoosted = 0
    for (let q = 0; q < 14; q++) {
      const query = q === 0 ? [vocabulary[0]!] : Array.from({ length: 2 + (q % 11) }, pick)
      const { pool: expected, boosted } = expectedPool(all, all, query)
      if (boosted === 5) fiveBoosted++
      for (const matchCount of [30, 45]) {
        expect(await search(query, matchCount), `${query.join(' ')} @ ${matchCount}`).toEqual(
          expected.slice(0, matchCount).map((r) => r.score.toFixed(9)),
        )
      }
      const one = all[q % all.length]!
      expect(await search(query, 30, [one.id]), `${query.join(' ')} in one`).toEqual(
        expectedPool(all, [one], query)
          .pool.slice(0, 30)
          .map((r) => r.score.toFixed(9)),
      )
    }
    // Most queries match more than five contexts: the rounds chose among documents.
    expect(fiveBoosted).toBeGreaterThan(9)
  }, 120_000)
})
