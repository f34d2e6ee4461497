import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { clientFor, startStack } from './stack.ts'
import { createPeople, createWorld, type People } from './world.ts'

// search_chunks's rounds pass over chunks too long to reach the pool's last score
// (bm25_longest, 20260101005200_search_types_and_lengths.sql): the bound must hold for every
// length past it, and the pool must stay exactly the brute-force one.
const stack = await startStack()
afterAll(() => stack.stop())

let people: People
beforeAll(async () => {
  people = await createPeople(stack)
})

/** A deterministic generator, so every run builds the same cases. */
function random(seed: number) {
  return () => (seed = (Math.imul(seed, 1_664_525) + 1_013_904_223) >>> 0) / 2 ** 32
}

describe('bm25_longest', () => {
  it('leaves out only lengths at which the terms together fall short of the need', async () => {
    const rand = random(7)
    const cases = Array.from({ length: 200 }, () => {
      const n = 1 + Math.floor(rand() * 8)
      return {
        idfs: Array.from({ length: n }, () => 0.05 + rand() * 6),
        tops: Array.from({ length: n }, () => 1 + Math.floor(rand() ** 2 * 40)),
        avglen: 5 + rand() * 300,
        k1: [0.9, 1.2, 1.5, 2][Math.floor(rand() * 4)]!,
        b: [0.3, 0.6, 0.75, 1][Math.floor(rand() * 4)]!,
        need: rand() * 20,
      }
    })
    const { rows } = await stack.db.pg.query<{ longest: number | null }>(
      `select public.bm25_longest(
         array(select jsonb_array_elements_text(c->'idfs')::float8),
         array(select jsonb_array_elements_text(c->'tops')::int),
         (c->>'avglen')::float8, (c->>'k1')::real, (c->>'b')::real, (c->>'need')::float8
       ) as longest
       from jsonb_array_elements($1::jsonb) with ordinality x (c, i) order by i`,
      [JSON.stringify(cases)],
    )
    let capped = 0
    for (const [i, c] of cases.entries()) {
      const longest = rows[i]!.longest
      if (longest === null) continue
      capped++
      const [k1, b] = [Math.fround(c.k1), Math.fround(c.b)]
      const most = (len: number) =>
        c.idfs.reduce(
          (sum, idf, j) =>
            sum +
            (idf * c.tops[j]! * (k1 + 1)) / (c.tops[j]! + k1 * (1 - b + (b * len) / c.avglen)),
          0,
        )
      // Past it, nothing reaches.
      for (const len of [longest + 1, longest + 2, longest + 50, longest * 2 + 10]) {
        expect(most(len), `case ${i} at ${len}`).toBeLessThan(c.need)
      }
    }
    // Most cases are capped: the bound is not vacuous.
    expect(capped).toBeGreaterThan(150)
  })
})

describe('search_chunks', () => {
  it('finds exactly the brute-force pool among passages of very different lengths', async () => {
    const rand = random(23)
    // Made-up words of letters only, each its own lexeme (as in search-boosted-exactness:
    // no ending the stemmer changes); a few common, most rare.
    const vocabulary = Array.from(
      { length: 40 },
      (_, i) => `zr${'bdfgkmptvx'[i % 10]}${'aeio'[Math.floor(i / 10)]}`,
    )
    const pick = () => vocabulary[Math.floor(vocabulary.length * rand() ** 3)]!
    const { workspaceId } = await createWorld(stack, people)
    // One passage per document (no document lends its score), 3 to 400 words long.
    const passages = Array.from({ length: 600 }, () =>
      Array.from({ length: 3 + Math.floor(rand() ** 3 * 400) }, pick),
    )
    const docs = await stack.db.pg.query<{ id: string }>(
      `insert into public.documents (workspace_id, title, mime_type, status, stage, chunk_count)
       select $1, 'passage ' || o, 'text/plain', 'ready', 'ready', 1
       from generate_series(1, $2::int) o
       returning id`,
      [workspaceId, passages.length],
    )
    const documentIds = docs.rows.map((r) => r.id)
    const inserted = await stack.db.pg.query<{ id: string; document_id: string }>(
      `insert into public.chunks (document_id, workspace_id, ordinal, content)
       select u.d, $1, 0, u.c from unnest($2::uuid[], $3::text[]) u (d, c)
       returning id, document_id`,
      [workspaceId, documentIds, passages.map((p) => p.join(' '))],
    )
    const chunks = inserted.rows.map((r) => ({
      id: r.id,
      words: passages[documentIds.indexOf(r.document_id)]!,
    }))
    const [k1, b] = [1.2, 0.75]
    const avg = chunks.reduce((sum, c) => sum + c.words.length, 0) / chunks.length

    const brute = (query: string[]) => {
      const distinct = [...new Set(query)]
      const idf = new Map(
        distinct
          .map((t) => [t, chunks.filter((c) => c.words.includes(t)).length] as const)
          .filter(([, n]) => n > 0)
          .map(([t, n]) => [
            t,
            Math.log(1 + (chunks.length - n + 0.5) / (n + 0.5)) *
              Math.sqrt(query.filter((w) => w === t).length),
          ]),
      )
      const [fk1, fb] = [Math.fround(k1), Math.fround(b)]
      return chunks
        .map((c) => {
          let score = 0
          for (const [term, w] of idf) {
            const tf = c.words.filter((x) => x === term).length
            if (tf)
              score += (w * tf * (fk1 + 1)) / (tf + fk1 * (1 - fb + (fb * c.words.length) / avg))
          }
          return score
        })
        .filter((s) => s > 0)
        .sort((x, y) => y - x)
    }

    for (let q = 0; q < 12; q++) {
      const query = Array.from({ length: 2 + (q % 9) }, pick)
      const { data, error } = await clientFor(stack, people.viewer).rpc('search_chunks', {
        workspace_id: workspaceId,
        query: query.join(' '),
        match_count: 30,
        k1,
        b,
        snippets: false,
      })
      expect(error).toBeNull()
      const pool = (data as { bm25: number }[]).map((r) => r.bm25).sort((x, y) => y - x)
      expect(
        pool.map((s) => s.toFixed(9)),
        query.join(' '),
      ).toEqual(
        brute(query)
          .slice(0, 30)
          .map((s) => s.toFixed(9)),
      )
    }
  }, 120_000)

  it('keeps its helpers out of the API', async () => {
    const res = await clientFor(stack, people.viewer).rpc('bm25_longest', {
      idfs: [1],
      tops: [1],
      avglen: 3,
      k1: 1.2,
      b: 0.6,
      need: 1,
    })
    expect(res.error?.code).toBe('42501')
  })
})
