import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { adminClient, clientFor, startStack, type User } from './stack.ts'
import { addReadyDocument, createPeople, createWorld, type People } from './world.ts'

// search_chunks' pruning against brute force, its document filters (kind, readiness) and its
// vector path through the per-dimension HNSW index.
const stack = await startStack()
afterAll(() => stack.stop())

let people: People
beforeAll(async () => {
  people = await createPeople(stack)
})

const as = (user?: User) => clientFor(stack, user)
const newWorkspace = async () => (await createWorld(stack, people)).workspaceId

type Row = {
  chunk_id: string
  document_id: string
  score: number
  bm25: number | null
  similarity: number | null
}

async function search(workspace: string, args: Record<string, unknown>): Promise<Row[]> {
  const { data, error } = await as(people.viewer).rpc('search_chunks', {
    workspace_id: workspace,
    snippets: false,
    ...args,
  })
  expect(error).toBeNull()
  return data as Row[]
}

/** A deterministic generator, so every run builds the same corpus. */
function random(seed: number) {
  return () => (seed = (Math.imul(seed, 1_664_525) + 1_013_904_223) >>> 0) / 2 ** 32
}

describe('pruning', () => {
  // Made-up words (checked below to be their own lexemes), drawn so that a few are common
  // and most are rare, as in real text. Letters only: a word of letters and digits would
  // be indexed by its parts too.
  const vocabulary = Array.from(
    { length: 40 },
    (_, i) => `zq${'bdfgkmptvx'[i % 10]}${'aeio'[Math.floor(i / 10)]}`,
  )
  const [k1, b] = [1.5, 0.75] // exact as Postgres reals

  /** Searches a new workspace of `corpus` with each query, against brute-force BM25. */
  async function expectBruteForceTop(corpus: string[], queries: string[][]) {
    const workspace = await newWorkspace()
    const { chunkIds } = await addReadyDocument(stack, people.editor, workspace, 'Zipf', corpus)
    await expectWorkspaceTop(workspace, chunkIds, corpus, queries)
  }

  /** Searches `workspace`, whose chunks are `chunkIds` holding `corpus`, against brute force. */
  async function expectWorkspaceTop(
    workspace: string,
    chunkIds: string[],
    corpus: string[],
    queries: string[][],
  ) {
    const docs = corpus.map((text) => text.split(' '))
    const avg = docs.reduce((sum, d) => sum + d.length, 0) / docs.length
    const score = (query: string[], doc: string[]) =>
      [...new Set(query)].reduce((total, term) => {
        const n = docs.filter((d) => d.includes(term)).length
        const tf = doc.filter((w) => w === term).length
        if (!n || !tf) return total
        // A term the query repeats weighs the square root of its count more.
        const times = query.filter((w) => w === term).length
        const idf = Math.log(1 + (docs.length - n + 0.5) / (n + 0.5)) * Math.sqrt(times)
        return total + (idf * tf * (k1 + 1)) / (tf + k1 * (1 - b + (b * doc.length) / avg))
      }, 0)
    for (const query of queries) {
      const expected = docs
        .map((doc, i) => ({ id: chunkIds[i]!, score: score(query, doc) }))
        .filter((r) => r.score > 0)
        .sort((x, y) => y.score - x.score || (x.id < y.id ? -1 : 1))
      // The rounds find the BM25 top of at least 30 (the query's pairs then reorder it, see
      // search-ranking.test.ts): the passages returned are exactly the BM25 top.
      for (const matchCount of [30, 45]) {
        const rows = await search(workspace, {
          query: query.join(' '),
          match_count: matchCount,
          k1,
          b,
        })
        const label = `${query.join(' ')} @ ${matchCount}`
        expect(
          rows
            .map((r) => r.bm25!)
            .sort((x, y) => y - x)
            .map((s) => s.toFixed(9)),
          label,
        ).toEqual(expected.slice(0, matchCount).map((r) => r.score.toFixed(9)))
      }
    }
  }

  it('returns exactly the brute-force BM25 top for long and short queries', async () => {
    const rand = random(7)
    const pick = () => vocabulary[Math.floor(vocabulary.length * rand() ** 2.5)]!
    const corpus = Array.from({ length: 300 }, () =>
      Array.from({ length: 3 + Math.floor(rand() * 30) }, pick).join(' '),
    )
    const lexemes = await stack.db.pg.query<{ l: string }>(
      'select t.lexeme as l from unnest(public.bm25_lexemes($1)) t order by 1',
      [vocabulary.join(' ')],
    )
    expect(lexemes.rows.map((r) => r.l)).toEqual([...vocabulary].sort())
    // 2 to 12 terms: more than eight exercises the looser demand for the commonest terms.
    const queries = Array.from({ length: 16 }, (_, q) => Array.from({ length: 2 + (q % 11) }, pick))
    await expectBruteForceTop(corpus, queries)
  })

  it('returns exactly the brute-force BM25 top when passages repeat with words dropped', async () => {
    // As bench:search's corpus: each text about ten times, a fifth of its words dropped, so
    // that many passages score alike, the pool fills in the middle of a round, and the rounds
    // pass over what the first pool scored (20260101006300_search_first_pool_and_ties.sql).
    const rand = random(11)
    const pick = () => vocabulary[Math.floor(vocabulary.length * rand() ** 2)]!
    const texts = Array.from({ length: 40 }, () =>
      Array.from({ length: 4 + Math.floor(rand() * 40) }, pick),
    )
    const corpus = texts.flatMap((words) =>
      Array.from({ length: 10 }, () => {
        const kept = words.filter(() => rand() > 0.2)
        return (kept.length ? kept : words).join(' ')
      }),
    )
    // Words of one text, so that its copies match several terms, then any words.
    const queries = Array.from({ length: 24 }, (_, q) => {
      const words = texts[q % texts.length]!
      return [...words.slice(0, 1 + (q % 4)), ...Array.from({ length: 1 + (q % 9) }, pick)]
    })
    await expectBruteForceTop(corpus, queries)
  })
  it('stays exact when a new document raises the bounds of the terms it holds', async () => {
    // The rounds and their check on the row (20260101007100_search_rounds_checked_on_the_row.sql)
    // pass over chunks by each term's bound, which an insert raises: a bound left as it was
    // before the second document would pass over its chunks, whose common terms come often in
    // few words.
    const rand = random(5)
    const pick = () => vocabulary[Math.floor(vocabulary.length * rand() ** 2.5)]!
    const first = Array.from({ length: 200 }, () =>
      Array.from({ length: 8 + Math.floor(rand() * 30) }, pick).join(' '),
    )
    const queries = Array.from({ length: 8 }, (_, q) => Array.from({ length: 3 + q }, pick))
    const workspace = await newWorkspace()
    const one = await addReadyDocument(stack, people.editor, workspace, 'First', first)
    await expectWorkspaceTop(workspace, one.chunkIds, first, queries)
    const second = queries.map((query) =>
      [...Array.from({ length: 6 }, () => query.at(-1)!), query[0]!].join(' '),
    )
    const two = await addReadyDocument(stack, people.editor, workspace, 'Second', second)
    await expectWorkspaceTop(
      workspace,
      [...one.chunkIds, ...two.chunkIds],
      [...first, ...second],
      queries,
    )
  })
})

describe('bm25_enough', () => {
  // Which sets of terms a chunk may hold and match, against what their bounds add up to.
  async function matches(terms: string[], bounds: number[], need: number, cap = 16, width = 8) {
    const { rows } = await stack.db.pg.query<{ mask: number; hit: boolean }>(
      `select m as mask, (e.q is null or array_to_tsvector(array(
         select t from unnest($1::text[]) with ordinality as u (t, i)
         where m & (1 << (i::int - 1)) <> 0)) @@ e.q) as hit
       from (select public.bm25_enough($1, $2, $3, $4, $5) as q) e,
         generate_series(0, (1 << cardinality($1::text[])) - 1) m`,
      [terms, bounds, need, cap, width],
    )
    return rows.map(({ mask, hit }) => ({
      sum: bounds.reduce((total, bound, i) => (mask & (1 << i) ? total + bound : total), 0),
      hit,
    }))
  }

  it('matches every chunk that could gain the need, and only those while no way is left out', async () => {
    const rand = random(11)
    for (let n = 1; n <= 10; n++) {
      for (let trial = 0; trial < 4; trial++) {
        const bounds = Array.from({ length: n }, () => Math.round(rand() * 60) / 10 + 0.1)
        const total = bounds.reduce((a, x) => a + x, 0)
        const need = Math.round(total * (0.1 + 0.8 * rand()) * 100) / 100
        const terms = bounds.map((_, i) => `zq${i}`)
        const label = `${bounds.join(',')} need ${need}`
        for (const { sum, hit } of await matches(terms, bounds, need)) {
          if (sum >= need) expect(hit, label).toBe(true)
          // Five terms have at most ten ways: none is left out, so the match is exact.
          else if (n <= 5) expect(hit, label).toBe(false)
        }
      }
    }
  })

  it('matches exactly the chunks that could gain the need, given the budget for every way', async () => {
    // The check on the row (20260101007100_search_rounds_checked_on_the_row.sql) allows 64 ways
    // of 12 terms: seven terms have at most 35 ways, so nothing is left out, where the index's
    // 16 ways may leave some out from six terms on.
    const rand = random(13)
    for (let n = 6; n <= 7; n++) {
      for (let trial = 0; trial < 4; trial++) {
        const bounds = Array.from({ length: n }, () => Math.round(rand() * 60) / 10 + 0.1)
        const total = bounds.reduce((a, x) => a + x, 0)
        const need = Math.round(total * (0.2 + 0.6 * rand()) * 100) / 100
        const terms = bounds.map((_, i) => `zq${i}`)
        for (const { sum, hit } of await matches(terms, bounds, need, 64, 12)) {
          expect(hit, `${bounds.join(',')} need ${need}`).toBe(sum >= need)
        }
      }
    }
  })

  it('asks for nothing when the need is met and matches nothing when it cannot be', async () => {
    expect((await matches(['zqa', 'zqb'], [1, 2], 0)).every((r) => r.hit)).toBe(true)
    expect((await matches(['zqa', 'zqb'], [1, 2], 3.5)).some((r) => r.hit)).toBe(false)
  })
})

describe('document filters', () => {
  let workspace: string
  let pdf: string
  let markdown: string
  let unknown: string
  beforeAll(async () => {
    workspace = await newWorkspace()
    const add = async (title: string, mime: string | null) => {
      const { documentId } = await addReadyDocument(stack, people.editor, workspace, title, [
        `otter notes from the ${title}`,
      ])
      const res = await as(people.editor)
        .from('documents')
        .update({ mime_type: mime })
        .eq('id', documentId)
      expect(res.error).toBeNull()
      return documentId
    }
    pdf = await add('report', 'application/pdf')
    markdown = await add('readme', 'text/markdown; charset=utf-8')
    unknown = await add('mystery', null)
  })

  it('keeps the kinds asked for', async () => {
    const ids = async (types: string[] | null) =>
      (await search(workspace, { query: 'otter', types })).map((r) => r.document_id).sort()
    expect(await ids(['pdf'])).toEqual([pdf])
    expect(await ids(['pdf', 'md'])).toEqual([pdf, markdown].sort())
    expect(await ids(['docx'])).toEqual([])
    expect(await ids(null)).toEqual([pdf, markdown, unknown].sort())
  })

  it('shows only ready documents: a new version being indexed stays out until the swap', async () => {
    const editor = as(people.editor)
    const next = await editor
      .from('documents')
      .insert({
        workspace_id: workspace,
        title: 'report v2',
        status: 'processing',
        replaces_id: pdf,
      })
      .select('id')
      .single()
    expect(next.error).toBeNull()
    const nextId = (next.data as { id: string }).id
    const chunk = await editor
      .from('chunks')
      .insert({ document_id: nextId, workspace_id: workspace, ordinal: 0, content: 'otter v2' })
    expect(chunk.error).toBeNull()
    const found = async () =>
      (await search(workspace, { query: 'otter' })).map((r) => r.document_id)
    expect(await found()).not.toContain(nextId)
    expect(await found()).toContain(pdf)

    await editor.from('documents').update({ status: 'ready', stage: 'ready' }).eq('id', nextId)
    expect(await found()).toContain(nextId)
  })
})

describe('vector path', () => {
  it('finds a workspace’s nearest chunks through the HNSW index, other workspaces never', async () => {
    const index = await adminClient(stack).rpc('ensure_embedding_index', { dims: 3 })
    expect(index.error).toBeNull()
    const ours = await newWorkspace()
    const theirs = await newWorkspace()
    const embed = async (workspace: string, vectors: string[]) => {
      const texts = vectors.map((_, i) => `heron sighting ${i}`)
      const { chunkIds } = await addReadyDocument(stack, people.editor, workspace, 'Birds', texts)
      for (const [i, embedding] of vectors.entries()) {
        const res = await as(people.editor)
          .from('chunks')
          .update({ embedding })
          .eq('id', chunkIds[i]!)
        expect(res.error).toBeNull()
      }
      return chunkIds
    }
    // Their vectors sit right on the query; ours further off, in a known order.
    await embed(
      theirs,
      Array.from({ length: 30 }, () => '[1,0,0]'),
    )
    const mine = await embed(ours, ['[0.1,1,0]', '[0.5,0.5,0]', '[0.9,0.1,0]', '[-1,0,0.1]'])

    const rows = await search(ours, {
      query: 'unrelated words',
      query_embedding: '[1,0,0]',
      match_count: 4,
    })
    expect(rows.map((r) => r.chunk_id)).toEqual([mine[2], mine[1], mine[0], mine[3]])
    expect(rows[0]!.similarity).toBeCloseTo(0.9 / Math.hypot(0.9, 0.1), 6)

    // vector_top's ordering expression and condition are the ones the index was made for:
    // with scans and sorts priced out, only an index that yields that order can serve it (with
    // sorts allowed, Postgres 15 sometimes chose another index of chunks plus a sort).
    const plan = await stack.db.pg.transaction(async (tx) => {
      await tx.query('set local enable_seqscan = off')
      await tx.query('set local enable_sort = off')
      const res = await tx.query<{ 'QUERY PLAN': string }>(
        `explain select c.id from public.chunks c
         where extensions.vector_dims(c.embedding) = 3
         order by c.embedding::extensions.vector(3) operator(extensions.<=>)
                  '[1,0,0]'::extensions.vector(3)
         limit 4`,
      )
      return res.rows.map((r) => r['QUERY PLAN']).join('\n')
    })
    expect(plan).toContain('chunks_embedding_3_idx')
  })
})
