import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { clientFor, startStack, type User } from './stack.ts'
import { termStatistics } from './term-statistics.ts'
import { addReadyDocument, createPeople, createWorld, type People } from './world.ts'

const stack = await startStack()
afterAll(() => stack.stop())

let people: People
let workspaceId: string
beforeAll(async () => {
  people = await createPeople(stack)
  workspaceId = (await createWorld(stack, people)).workspaceId
})

const as = (user?: User) => clientFor(stack, user)

const addDocument = (title: string, texts: string[], workspace = workspaceId) =>
  addReadyDocument(stack, people.editor, workspace, title, texts)

async function newWorkspace(): Promise<string> {
  return (await createWorld(stack, people)).workspaceId
}

const { statistics, keptPeaks, expectExactStatistics } = termStatistics(stack)

describe('BM25 scores', () => {
  // Words chosen so that stemming maps each to its own lexeme and none is a stop word.
  const texts = [
    'apple banana apple',
    'banana cherry',
    'cherry grape melon kiwi lemon',
    'melon kiwi',
  ]
  const k1 = 1.5 // exact as a Postgres real
  const b = 0.75

  /**
   * Okapi BM25 with Lucene's idf, from the formula, over whitespace-split words, each query
   * term's idf times the square root of its count in the query; plus, for each two
   * neighbouring query words (none here is a stop word) that a text also writes side by side,
   * the smaller of their two weights (see 20260101002800_search_ranking.sql).
   */
  function expectedScores(query: string[], corpus = texts) {
    const docs = corpus.map((t) => t.split(' '))
    const avg = docs.reduce((sum, d) => sum + d.length, 0) / docs.length
    const weight = (term: string) => {
      const n = docs.filter((d) => d.includes(term)).length
      const inQuery = query.filter((w) => w === term).length
      return Math.log(1 + (docs.length - n + 0.5) / (n + 0.5)) * Math.sqrt(inQuery)
    }
    const pairs = new Set(query.slice(1).map((w, i) => `${query[i]} ${w}`))
    return docs.map((d) => {
      const bm25 = [...new Set(query)].reduce((score, term) => {
        const tf = d.filter((w) => w === term).length
        return score + (weight(term) * tf * (k1 + 1)) / (tf + k1 * (1 - b + (b * d.length) / avg))
      }, 0)
      const together = [...pairs].filter((pair) => {
        const [first, second] = pair.split(' ')
        return first !== second && d.some((w, i) => w === first && d[i + 1] === second)
      })
      return together.reduce((score, pair) => {
        const [first, second] = pair.split(' ')
        return score + Math.min(weight(first!), weight(second!))
      }, bm25)
    })
  }

  it('equal the values computed by hand, ranked best first', async () => {
    const workspace = await newWorkspace()
    const { chunkIds } = await addDocument('Fruit', texts, workspace)
    const { data, error } = await as(people.viewer).rpc('search_chunks', {
      workspace_id: workspace,
      query: 'Apples and cherries?',
      k1,
      b,
    })
    expect(error).toBeNull()
    const expected = expectedScores(['apple', 'cherry'])
    const rows = data as { chunk_id: string; score: number; bm25: number; title: string }[]
    // Chunks 0, 1, 2 contain a query term; chunk 3 does not and is not returned.
    expect(rows.map((r) => r.chunk_id)).toEqual(
      [0, 1, 2].sort((x, y) => expected[y]! - expected[x]!).map((i) => chunkIds[i]),
    )
    for (const row of rows) {
      const i = chunkIds.indexOf(row.chunk_id)
      expect(row.score).toBeCloseTo(expected[i]!, 6)
      expect(row.bm25).toBe(row.score)
      expect(row.title).toBe('Fruit')
    }
  })

  it('are exact when rare terms decide the top alone, partly or not at all (MaxScore)', async () => {
    // 40 chunks share "common"; "medium" is in 4 of them (10%); "rare" in one (at most 5%).
    const corpus = Array.from({ length: 40 }, (_, i) =>
      i === 7 ? 'rare common' : `${i < 4 ? 'medium ' : ''}common ${'filler '.repeat(i % 5)}`.trim(),
    )
    const workspace = await newWorkspace()
    const { chunkIds } = await addDocument('Many', corpus, workspace)
    for (const query of ['rare common', 'rare medium common']) {
      const expected = expectedScores(query.split(' '), corpus)
      const order = expected.map((score, i) => ({ score, id: chunkIds[i]! }))
      order.sort((x, y) => y.score - x.score || (x.id < y.id ? -1 : 1))
      for (const matchCount of [1, 2, 5]) {
        const { data, error } = await as(people.viewer).rpc('search_chunks', {
          workspace_id: workspace,
          query,
          match_count: matchCount,
          k1,
          b,
          snippets: false,
        })
        expect(error).toBeNull()
        const rows = data as { chunk_id: string; score: number }[]
        const wanted = order.slice(0, matchCount)
        expect(
          rows.map((r) => r.chunk_id),
          `${query} @ ${matchCount}`,
        ).toEqual(wanted.map((o) => o.id))
        for (const [i, row] of rows.entries()) expect(row.score).toBeCloseTo(wanted[i]!.score, 6)
      }
    }
  })

  it('use k1 and b as given: b = 0 ignores length, k1 = 0 ignores term frequency', async () => {
    const workspace = await newWorkspace()
    const { chunkIds } = await addDocument('Pairs', ['zebra', 'zebra zebra quail quail'], workspace)
    const search = async (k1: number, b: number) => {
      const { data } = await as(people.viewer).rpc('search_chunks', {
        workspace_id: workspace,
        query: 'zebra',
        k1,
        b,
      })
      return new Map(
        (data as { chunk_id: string; score: number }[]).map((r) => [r.chunk_id, r.score]),
      )
    }
    const flat = await search(0, 0.5)
    expect(flat.get(chunkIds[0]!)).toBeCloseTo(flat.get(chunkIds[1]!)!, 9)
    const noLength = await search(1.5, 0)
    // idf * tf * 2.5 / (tf + 1.5): 2.5/2.5 against 5/3.5.
    expect(noLength.get(chunkIds[1]!)! / noLength.get(chunkIds[0]!)!).toBeCloseTo(5 / 3.5, 6)
  })

  it('finds hyphenated words by their parts and folds accents', async () => {
    const workspace = await newWorkspace()
    await addDocument('Notes', ['COVID-19 outcomes in a café', 'unrelated words here'], workspace)
    for (const query of ['covid 19', 'COVID-19', 'cafe']) {
      const { data } = await as(people.viewer).rpc('search_chunks', {
        workspace_id: workspace,
        query,
      })
      expect(data, query).toHaveLength(1)
    }
  })

  it('highlights matches in an HTML-safe snippet', async () => {
    const workspace = await newWorkspace()
    await addDocument('Markup', ['The <script>alert(1)</script> tiger & lion roared'], workspace)
    const { data } = await as(people.viewer).rpc('search_chunks', {
      workspace_id: workspace,
      query: 'tigers',
    })
    const snippet = (data as { snippet: string }[])[0]!.snippet
    expect(snippet).toContain('<mark>tiger</mark> &amp; lion')
    // The only markup left is <mark>: the text's own angle brackets arrive as entities.
    expect(snippet).toContain('&gt;')
    expect(snippet.replaceAll(/<\/?mark>/g, '')).not.toMatch(/[<>]/)
  })

  it('filters by document and answers nothing to a query without terms', async () => {
    const workspace = await newWorkspace()
    const first = await addDocument('One', ['walrus facts'], workspace)
    await addDocument('Two', ['walrus habitats'], workspace)
    const client = as(people.viewer)
    const { data } = await client.rpc('search_chunks', {
      workspace_id: workspace,
      query: 'walrus',
      document_ids: [first.documentId],
    })
    expect((data as { document_id: string }[]).map((r) => r.document_id)).toEqual([
      first.documentId,
    ])
    for (const query of ['', 'the and of', '   ']) {
      const res = await client.rpc('search_chunks', { workspace_id: workspace, query })
      expect(res).toMatchObject({ error: null, data: [] })
    }
  })

  it('refuses bad parameters with 22023 and a 400', async () => {
    for (const args of [{ match_count: 0 }, { k1: -1 }, { b: 2 }, { rrf_k: 0 }]) {
      const res = await as(people.viewer).rpc('search_chunks', {
        workspace_id: workspaceId,
        query: 'anything',
        ...args,
      })
      expect(res.status, JSON.stringify(args)).toBe(400)
      expect(res.error?.code).toBe('22023')
    }
  })

  it('fuses lexical and vector ranks by RRF when a query embedding is given', async () => {
    const workspace = await newWorkspace()
    const { chunkIds } = await addDocument(
      'Vectors',
      ['heron heron', 'heron', 'pelican'],
      workspace,
    )
    const vectors = ['[1,0,0]', '[0,1,0]', '[0.9,0.1,0]']
    for (const [i, embedding] of vectors.entries()) {
      const res = await as(people.editor)
        .from('chunks')
        .update({ embedding })
        .eq('id', chunkIds[i]!)
      expect(res.error).toBeNull()
    }
    const { data, error } = await as(people.viewer).rpc('search_chunks', {
      workspace_id: workspace,
      query: 'heron',
      query_embedding: '[1,0,0]',
      semantic_weight: 0.5,
    })
    expect(error).toBeNull()
    type Row = {
      chunk_id: string
      score: number
      lexical_rank: number | null
      semantic_rank: number | null
    }
    const rows = data as Row[]
    expect(rows).toHaveLength(3)
    for (const row of rows) {
      const expected =
        (row.lexical_rank ? 1 / (60 + row.lexical_rank) : 0) +
        (row.semantic_rank ? 0.5 / (60 + row.semantic_rank) : 0)
      expect(row.score).toBeCloseTo(expected, 9)
    }
    const byId = new Map(rows.map((r) => [r.chunk_id, r]))
    expect(byId.get(chunkIds[2]!)).toMatchObject({ lexical_rank: null, semantic_rank: 2 })
    expect(byId.get(chunkIds[0]!)).toMatchObject({ lexical_rank: 1, semantic_rank: 1 })
  })
})

describe('statistics', () => {
  it('stay exact through inserts, updates, deletes and a replacement', async () => {
    const workspace = await newWorkspace()
    const editor = as(people.editor)
    const first = await addDocument('First', ['alpha beta beta', 'gamma delta', 'alpha'], workspace)
    // beta's peaks, merged across two inserts: (2, 3) from the first, (1, 2) from the second.
    const second = await addDocument('Second', ['beta epsilon', 'zeta eta theta'], workspace)
    await expectExactStatistics(workspace, 'exact')
    expect((await keptPeaks(workspace)).get('beta')).toEqual([
      [1, 2],
      [2, 3],
    ])

    // Content changes move terms; an embedding alone changes nothing.
    expect(
      (await editor.from('chunks').update({ content: 'omega omega' }).eq('id', first.chunkIds[1]!))
        .error,
    ).toBeNull()
    expect(
      (
        await editor
          .from('chunks')
          .update({ embedding: '[1,2]' })
          .eq('document_id', first.documentId)
      ).error,
    ).toBeNull()
    await expectExactStatistics(workspace, 'exact')

    // beta's (1, 2) chunk goes; its peak stays, a bound still.
    expect((await editor.from('chunks').delete().eq('id', second.chunkIds[0]!)).error).toBeNull()
    await expectExactStatistics(workspace)
    expect((await keptPeaks(workspace)).get('beta')).toEqual([
      [1, 2],
      [2, 3],
    ])

    // Replacement: the new version with its chunks, counted only once swapped in (the swap
    // makes it ready); the old one goes with its chunks (cascade).
    const next = await editor
      .from('documents')
      .insert({
        workspace_id: workspace,
        title: 'First v2',
        version: 2,
        replaces_id: first.documentId,
      })
      .select('id')
      .single()
    expect(next.error).toBeNull()
    const nextId = (next.data as { id: string }).id
    await editor
      .from('chunks')
      .insert([{ document_id: nextId, workspace_id: workspace, ordinal: 0, content: 'alpha iota' }])
    await expectExactStatistics(workspace)
    expect((await keptPeaks(workspace)).has('iota')).toBe(false)
    expect((await editor.rpc('replace_document', { new_id: nextId })).error).toBeNull()
    await expectExactStatistics(workspace)
    const terms = (await statistics(workspace)).kept.terms.map((t) => JSON.parse(t).term)
    expect(terms).not.toContain('omega')
    expect(terms).toContain('iota')

    // Everything deleted: no terms left, totals back to zero.
    await editor.from('documents').delete().eq('workspace_id', workspace)
    const { kept } = await statistics(workspace)
    expect(kept).toEqual({ terms: [], totals: [] })

    // Deleting the workspace takes its statistics with it.
    await addDocument('Again', ['kappa'], workspace)
    await stack.db.pg.query('delete from public.workspaces where id = $1', [workspace])
    const left = await stack.db.pg.query(
      `select 1 from public.chunk_term_stats where workspace_id = $1
       union all select 1 from public.workspace_chunk_stats where workspace_id = $1`,
      [workspace],
    )
    expect(left.rows).toEqual([])
  })

  // On Postgres a 7,000-chunk delete ran for 17 minutes once autovacuum had analyzed the
  // term statistics: no kept count was 0, so the planner expected one term to reach 0 and
  // chose a nested loop that rescanned the removed terms' aggregate for each term gone,
  // and, spilled past work_mem, that unnested every removed chunk again each time. The
  // settings below hold the planner to nested loops and make this document's terms spill
  // as that one's did; deletes that join by key alone stay quick in any plan.
  it('are kept exactly by a big delete after an analyze, however the planner joins', async () => {
    const workspace = await newWorkspace()
    const texts = Array.from({ length: 300 }, (_, chunk) =>
      Array.from({ length: 20 }, (_, word) => `zq${chunk}x${word}`).join(' '),
    )
    const { documentId } = await addDocument('Many terms', texts, workspace)
    await addDocument('Kept', ['zq0x0 stays'], workspace)
    await stack.db.pg.query('analyze public.chunk_term_stats')
    await stack.db.pg.transaction(async (tx) => {
      await tx.query(`set local work_mem = '192kB'`)
      await tx.query('set local enable_hashjoin = off')
      await tx.query('set local enable_mergejoin = off')
      // Fails rather than hangs where the server keeps time (PGlite does not); bench:delete
      // measures the time.
      await tx.query(`set local statement_timeout = '20s'`)
      await tx.query('delete from public.documents where id = $1', [documentId])
    })
    await expectExactStatistics(workspace)
    expect((await statistics(workspace)).kept.terms).toHaveLength(2)
  }, 120_000)
})

describe('search_chunks and RLS', () => {
  beforeAll(() => addDocument('Shared', ['platypus venom study']))

  it('gives members results and outsiders and anonymous callers nothing', async () => {
    const args = { workspace_id: workspaceId, query: 'platypus' }
    for (const user of [people.viewer, people.editor, people.owner]) {
      const { data, error } = await as(user).rpc('search_chunks', args)
      expect(error).toBeNull()
      expect(data).toHaveLength(1)
    }
    for (const user of [people.outsider, undefined]) {
      const { data, error } = await as(user).rpc('search_chunks', args)
      expect(error).toBeNull()
      expect(data).toEqual([])
    }
  })

  it('hides the statistics from outsiders', async () => {
    const { data } = await as(people.outsider)
      .from('chunk_term_stats')
      .select('term')
      .eq('workspace_id', workspaceId)
    expect(data).toEqual([])
    const viewer = await as(people.viewer)
      .from('chunk_term_stats')
      .select('term')
      .eq('workspace_id', workspaceId)
    expect(viewer.data?.length).toBeGreaterThan(0)
    const write = await as(people.owner)
      .from('chunk_term_stats')
      .insert({ workspace_id: workspaceId, term: 'forged', chunk_freq: 1 })
    expect(write.error?.code).toBe('42501')
  })
})
