import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { clientFor, startStack } from './stack.ts'
import { addReadyDocument, createPeople, createWorld, type People } from './world.ts'

// A search kept to one document ranks by that document's own statistics, its pages as a unit
// (20260101005300_search_one_document.sql), through the search function as the browser calls
// it; search_chunks over the same document shows what the workspace's statistics did instead.
const stack = await startStack()
afterAll(() => stack.stop())

type Row = { chunk_id: string; page_start: number | null; score: number; snippet: string | null }

let people: People
beforeAll(async () => {
  people = await createPeople(stack)
})

/** A workspace of its own, and searches over it through the function and through search_chunks. */
async function library() {
  const { workspaceId } = await createWorld(stack, people)
  const viewer = clientFor(stack, people.viewer)
  const add = (title: string, texts: string[]) =>
    addReadyDocument(stack, people.editor, workspaceId, title, texts)
  const search = async (query: string, documentIds: string[], limit = 10) => {
    const { data, error } = await viewer.functions.invoke<{ results: Row[] }>('search', {
      body: { workspace_id: workspaceId, query, document_ids: documentIds, limit },
    })
    expect(error).toBeNull()
    return data!.results
  }
  const searchChunks = async (query: string, documentId: string) => {
    const { data, error } = await viewer.rpc('search_chunks', {
      workspace_id: workspaceId,
      query,
      document_ids: [documentId],
      snippets: false,
    })
    expect(error).toBeNull()
    return data as Row[]
  }
  return { workspaceId, add, search, searchChunks }
}

describe('search kept to one document', () => {
  it("weighs the query's terms by the document's own passages, not the workspace's", async () => {
    const { add, search, searchChunks } = await library()
    // "Harbor" is rare in the workspace (this document only) and on every passage of it:
    // inside it, it tells no passage apart. "Dredging" is common elsewhere, rare here.
    const harbor = await add('Harbor annual report', [
      'The Harbor Company owns the harbor, the harbor cranes and the harbor tugs of the harbor.',
      'Costs of dredging the harbor rose this year after the storms.',
      'The harbor board met four times; the harbor pilots renewed their contract.',
      'Harbor revenue from berths and moorings grew by a tenth.',
    ])
    for (const i of [1, 2, 3, 4, 5]) {
      await add(`Dredging contractor ${i}`, [
        'Dredging contracts for rivers and canals.',
        'Dredging equipment: cutter suction dredgers and hoppers.',
      ])
    }
    const query = 'harbor dredging'
    const workspaceFirst = (await searchChunks(query, harbor.documentId))[0]!
    expect(workspaceFirst.chunk_id).toBe(harbor.chunkIds[0])

    const results = await search(query, [harbor.documentId])
    expect(results[0]!.chunk_id).toBe(harbor.chunkIds[1])
    expect(results[0]!.snippet).toContain('<mark>dredging</mark>')
    expect(new Set(results.map((r) => r.chunk_id)).size).toBe(results.length)
  })

  it("counts a passage's length in words, so a table's figures do not mark its labels down", async () => {
    const { add, search, searchChunks } = await library()
    const figures = Array.from({ length: 30 }, (_, i) => `${(i + 1) * 1_117}`).join(' ')
    const notes = await add('Quarterly notes', [
      'Inventories were counted at every warehouse by the staff at the close of the quarter.',
      `Inventories ${figures}`,
      'Receivables were collected within the usual terms from our customers this quarter.',
    ])
    // With the figures counted, the table passage is the long one and came second.
    const counted = await searchChunks('inventories', notes.documentId)
    expect(counted[0]!.chunk_id).toBe(notes.chunkIds[0])

    const results = await search('inventories', [notes.documentId])
    expect(results.map((r) => r.chunk_id).slice(0, 2)).toEqual([
      notes.chunkIds[1],
      notes.chunkIds[0],
    ])
  })

  it('scores pages as a unit: a page about the question before a lone passage', async () => {
    const { workspaceId, search, searchChunks } = await library()
    const editor = clientFor(stack, people.editor)
    const { data: doc, error } = await editor
      .from('documents')
      .insert({
        workspace_id: workspaceId,
        title: 'Gauge manual',
        status: 'ready',
        stage: 'ready',
        page_count: 4,
      })
      .select('id')
      .single<{ id: string }>()
    expect(error).toBeNull()
    const passages: [number, string][] = [
      [1, 'Tide gauge readings are logged by the harbour master every hour of the day.'],
      [1, 'Tide gauge readings are checked each spring against the benchmark.'],
      [1, 'Tide gauge readings that drift mean the gauge is replaced within the week.'],
      [2, 'Tide gauge readings are compared with the charts.'],
      [3, 'Buoys mark the channel and are painted red or green.'],
      [4, 'The lighthouse keeper trims the wick at dusk.'],
    ]
    const inserted = await editor
      .from('chunks')
      .insert(
        passages.map(([page, content], ordinal) => ({
          document_id: doc!.id,
          workspace_id: workspaceId,
          ordinal,
          content,
          page_start: page,
          page_end: page,
        })),
      )
      .select('id')
      .order('ordinal')
    expect(inserted.error).toBeNull()
    const ids = inserted.data!.map((row) => row.id as string)

    // Passage by passage, the short one on page 2 matches best.
    expect((await searchChunks('tide gauge readings', doc!.id))[0]!.chunk_id).toBe(ids[3])
    const results = await search('tide gauge readings', [doc!.id])
    expect(results[0]!.page_start).toBe(1)
    expect(ids.slice(0, 3)).toContain(results[0]!.chunk_id)
    // Each page's best passage before any page's second.
    expect(results.slice(0, 2).map((r) => r.page_start)).toEqual([1, 2])
  })

  it('ranks a passage under a heading naming the question first: capitals or a heading path', async () => {
    const { add, search, searchChunks } = await library()
    const report = await add('Annual report', [
      'Liabilities are shown on the balance sheets at amortised cost.',
      'CONSOLIDATED BALANCE SHEETS\nTotal assets 1,200 1,100\nLong-term debt 500 450\nTotal liabilities 900 850\nShareholders equity 300 250',
      'Cash flows from operations were steady in each quarter of the year under review.',
    ])
    const query = 'liabilities on the balance sheets'
    // Passage by passage, the prose says as much as the table in fewer words.
    const passageFirst = await searchChunks(query, report.documentId)
    expect(passageFirst[0]!.chunk_id).toBe(report.chunkIds[0])
    expect((await search(query, [report.documentId]))[0]!.chunk_id).toBe(report.chunkIds[1])

    // A Word or Markdown passage's heading path counts as its title.
    const manual = await add('Manual', [
      'Clean the filter when the pump is noisy; the filter sits behind the front panel of the pump.',
      'Unscrew the cap and lift the old filter out.',
    ])
    const untitled = await search('replacing the filter', [manual.documentId])
    expect(untitled[0]!.chunk_id).toBe(manual.chunkIds[0])
    const { error } = await clientFor(stack, people.editor)
      .from('chunks')
      .update({ heading_path: ['Maintenance', 'Replacing the filter'] })
      .eq('id', manual.chunkIds[1])
    expect(error).toBeNull()
    const steps = await search('replacing the filter', [manual.documentId])
    expect(steps[0]!.chunk_id).toBe(manual.chunkIds[1])
  })

  it('fuses its ranking with the vectors of the document only, by RRF', async () => {
    const { workspaceId, add } = await library()
    const mine = await add('Birds', ['heron heron', 'heron', 'pelican'])
    // Another document's passage is nearest the query's vector: it must not come in.
    const other = await add('Other birds', ['stork'])
    const editor = clientFor(stack, people.editor)
    const vectors: [string, string][] = [
      [mine.chunkIds[0]!, '[1,0,0]'],
      [mine.chunkIds[1]!, '[0,1,0]'],
      [mine.chunkIds[2]!, '[0.9,0.1,0]'],
      [other.chunkIds[0]!, '[1,0,0]'],
    ]
    for (const [id, embedding] of vectors) {
      const { error } = await editor.from('chunks').update({ embedding }).eq('id', id)
      expect(error).toBeNull()
    }
    const { data, error } = await clientFor(stack, people.viewer).rpc('search_document', {
      workspace_id: workspaceId,
      document: mine.documentId,
      query: 'heron',
      query_embedding: '[1,0,0]',
    })
    expect(error).toBeNull()
    type Fused = Row & { lexical_rank: number | null; semantic_rank: number | null }
    const rows = data as Fused[]
    expect(rows.map((r) => r.chunk_id).sort()).toEqual([...mine.chunkIds].sort())
    for (const row of rows) {
      const expected =
        (row.lexical_rank ? 1 / (60 + row.lexical_rank) : 0) +
        (row.semantic_rank ? 1 / (60 + row.semantic_rank) : 0)
      expect(row.score).toBeCloseTo(expected, 9)
    }
    expect(rows[0]).toMatchObject({ chunk_id: mine.chunkIds[0], lexical_rank: 1, semantic_rank: 1 })
    expect(rows.find((r) => r.chunk_id === mine.chunkIds[2])).toMatchObject({
      lexical_rank: null,
      semantic_rank: 2,
    })
  })

  it('answers nothing for a document of another workspace, one not ready, or of other kinds', async () => {
    const { workspaceId, add, search } = await library()
    const other = await library()
    const theirs = await other.add('Their notes', ['Walrus tusks and walrus ice.'])
    expect(await search('walrus', [theirs.documentId])).toEqual([])

    const mine = await add('My notes', ['Walrus tusks and walrus ice.'])
    const { error } = await clientFor(stack, people.editor)
      .from('documents')
      .update({ status: 'processing', stage: 'indexing' })
      .eq('id', mine.documentId)
    expect(error).toBeNull()
    expect(await search('walrus', [mine.documentId])).toEqual([])

    const ready = await add('Ready notes', ['Walrus tusks and walrus ice.'])
    const { data } = await clientFor(stack, people.viewer).functions.invoke<{ results: Row[] }>(
      'search',
      { body: { workspace_id: workspaceId, query: 'walrus', document_ids: [ready.documentId] } },
    )
    expect(data!.results.map((r) => r.chunk_id)).toEqual(ready.chunkIds)
    const pdfOnly = await clientFor(stack, people.viewer).functions.invoke<{ results: Row[] }>(
      'search',
      {
        body: {
          workspace_id: workspaceId,
          query: 'walrus',
          document_ids: [ready.documentId],
          types: ['pdf'],
        },
      },
    )
    expect(pdfOnly.data!.results).toEqual([])
  })

  it('refuses an outsider and answers nothing to one calling the function directly', async () => {
    const { workspaceId, add } = await library()
    const notes = await add('Notes', ['Walrus tusks and walrus ice.'])
    const outsider = clientFor(stack, people.outsider)
    const { error } = await outsider.functions.invoke('search', {
      body: { workspace_id: workspaceId, query: 'walrus', document_ids: [notes.documentId] },
    })
    expect(error).not.toBeNull()
    const direct = await outsider.rpc('search_document', {
      workspace_id: workspaceId,
      document: notes.documentId,
      query: 'walrus',
    })
    expect(direct.error).toBeNull()
    expect(direct.data).toEqual([])
  })

  it('refuses a match count out of range with the 22023 it names', async () => {
    const { workspaceId, add } = await library()
    const notes = await add('Notes', ['Walrus tusks and walrus ice.'])
    const { error } = await clientFor(stack, people.viewer).rpc('search_document', {
      workspace_id: workspaceId,
      document: notes.documentId,
      query: 'walrus',
      match_count: 0,
    })
    expect(error).toMatchObject({ code: '22023' })
    expect(error!.message).toContain('match_count')
  })
})
