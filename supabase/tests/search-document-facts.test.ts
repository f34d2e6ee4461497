import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { clientFor, startStack } from './stack.ts'
import { addReadyDocument, createPeople, createWorld, type People } from './world.ts'

// search_document reads each passage's length in words and its headings' terms as stored when
// the chunk was written (20260101005900_search_document_stored_facts.sql). They must follow
// every change of a chunk's text: a document edited in place ranks exactly as the same
// passages written afresh.
const stack = await startStack()
afterAll(() => stack.stop())

let people: People
beforeAll(async () => {
  people = await createPeople(stack)
})

type Ranked = {
  ordinal: number
  score: number
  bm25: number
  lexical_rank: number
  page_start: number | null
}

/** Chunks whose stored facts are missing or differ from what their text makes now. */
async function staleFacts(workspaceId: string): Promise<number> {
  return stack.db.asService(async (tx) => {
    const { rows } = await tx.query<{ n: number }>(
      `select count(*)::int as n
       from public.chunks c
       left join public.chunk_search_facts f on f.chunk_id = c.id
       where c.workspace_id = $1
         and (f.chunk_id is null
              or f.document_id <> c.document_id
              or f.words <> public.word_count(c.lexemes)
              or f.heading_terms <> public.chunk_heading_terms(c.heading_path, c.content))`,
      [workspaceId],
    )
    return rows[0]!.n
  })
}

describe("search_document's stored passage facts", () => {
  it('follow edits, heading paths, moves, deletes and later inserts: the ranking of a fresh copy', async () => {
    const { workspaceId } = await createWorld(stack, people)
    const editor = clientFor(stack, people.editor)
    const viewer = clientFor(stack, people.viewer)
    const rank = async (documentId: string, query: string) => {
      const { data, error } = await viewer.rpc('search_document', {
        workspace_id: workspaceId,
        document: documentId,
        query,
        snippets: false,
      })
      expect(error).toBeNull()
      return (data as Ranked[]).map(({ ordinal, score, bm25, lexical_rank, page_start }) => ({
        ordinal,
        score,
        bm25,
        lexical_rank,
        page_start,
      }))
    }

    const edited = await addReadyDocument(stack, people.editor, workspaceId, 'Pump manual', [
      'Pump maintenance: clean the filter every month.',
      'The filter sits behind the panel.',
      'Warranty terms cover the motor for two years.',
      'Gaskets are replaced with the seals.',
    ])
    const [first, second, third, fourth] = edited.chunkIds
    const change = async (id: string, values: Record<string, unknown>) => {
      const { error } = await editor.from('chunks').update(values).eq('id', id)
      expect(error).toBeNull()
    }
    // Longer in words: its length and the document's average change.
    await change(second!, {
      content: 'The filter sits behind the front panel of the pump, beside the motor housing.',
    })
    // A heading naming the filter: a heading term, and no change of length.
    await change(third!, { heading_path: ['Replacing the filter'] })
    // Inside a table: its title and header row are indexed with it (chunk_index_text), so
    // its length and its headings both change.
    await change(first!, { heading_path: ['Filter schedule', '| Month | Filter | Pump |'] })
    const removed = await editor.from('chunks').delete().eq('id', fourth!)
    expect(removed.error).toBeNull()
    // A passage moved in from another document counts here, and no longer there.
    const spare = await addReadyDocument(stack, people.editor, workspaceId, 'Spare parts', [
      'Spare filters and pump seals are kept in the store.',
    ])
    await change(spare.chunkIds[0]!, {
      document_id: edited.documentId,
      ordinal: 4,
      page_start: 5,
      page_end: 6,
    })
    const added = await editor.from('chunks').insert({
      document_id: edited.documentId,
      workspace_id: workspaceId,
      ordinal: 5,
      content: 'Filters for the pump are sold in packs of three.',
      page_start: 6,
      page_end: 7,
    })
    expect(added.error).toBeNull()
    // An embedding written later changes nothing the facts depend on.
    await change(second!, { embedding: '[1,0,0]' })
    expect(await staleFacts(workspaceId)).toBe(0)

    const { data: fresh, error } = await editor
      .from('documents')
      .insert({ workspace_id: workspaceId, title: 'Pump manual', status: 'ready', stage: 'ready' })
      .select('id')
      .single<{ id: string }>()
    expect(error).toBeNull()
    const copied = await editor.from('chunks').insert(
      [
        {
          ordinal: 0,
          content: 'Pump maintenance: clean the filter every month.',
          heading_path: ['Filter schedule', '| Month | Filter | Pump |'],
        },
        {
          ordinal: 1,
          content: 'The filter sits behind the front panel of the pump, beside the motor housing.',
        },
        {
          ordinal: 2,
          content: 'Warranty terms cover the motor for two years.',
          heading_path: ['Replacing the filter'],
        },
        { ordinal: 4, content: 'Spare filters and pump seals are kept in the store.' },
        { ordinal: 5, content: 'Filters for the pump are sold in packs of three.' },
      ].map((chunk) => ({
        document_id: fresh!.id,
        workspace_id: workspaceId,
        page_start: chunk.ordinal + 1,
        page_end: chunk.ordinal + 2,
        // A bulk insert writes null where a row lacks a column another has.
        heading_path: [],
        ...chunk,
      })),
    )
    expect(copied.error).toBeNull()

    for (const query of ['filter pump', 'replacing the filter of the motor', 'month schedule']) {
      const ranked = await rank(edited.documentId, query)
      expect(ranked.length).toBeGreaterThan(0)
      const expected = await rank(fresh!.id, query)
      expect(ranked.map((r) => r.ordinal)).toEqual(expected.map((r) => r.ordinal))
      ranked.forEach((row, i) => {
        expect(row.score).toBeCloseTo(expected[i]!.score, 9)
        expect(row.bm25).toBeCloseTo(expected[i]!.bm25, 9)
      })
    }
  })

  it("come with a new version's chunks and go with the replaced version's", async () => {
    const { workspaceId } = await createWorld(stack, people)
    const editor = clientFor(stack, people.editor)
    const old = await addReadyDocument(stack, people.editor, workspaceId, 'Boiler log', [
      'Boilers are serviced every year.',
    ])
    const next = await editor
      .from('documents')
      .insert({
        workspace_id: workspaceId,
        title: 'Boiler log',
        status: 'processing',
        stage: 'indexing',
        replaces_id: old.documentId,
      })
      .select('id')
      .single<{ id: string }>()
    expect(next.error).toBeNull()
    const chunks = await editor.from('chunks').insert(
      ['Boilers are serviced every spring.', 'BOILER PRESSURE\nGauge readings by month.'].map(
        (content, ordinal) => ({
          document_id: next.data!.id,
          workspace_id: workspaceId,
          ordinal,
          content,
        }),
      ),
    )
    expect(chunks.error).toBeNull()
    const swapped = await editor.rpc('replace_document', { new_id: next.data!.id })
    expect(swapped.error).toBeNull()

    expect(await staleFacts(workspaceId)).toBe(0)
    const left = await stack.db.asService((tx) =>
      tx.query<{ n: number }>(
        'select count(*)::int as n from public.chunk_search_facts where chunk_id = $1',
        [old.chunkIds[0]],
      ),
    )
    expect(left.rows[0]!.n).toBe(0)
    const { data, error } = await clientFor(stack, people.viewer).rpc('search_document', {
      workspace_id: workspaceId,
      document: next.data!.id,
      query: 'boiler pressure',
      snippets: false,
    })
    expect(error).toBeNull()
    // The new version's passages are all searched, the one holding both words first.
    expect((data as Ranked[]).map((r) => r.ordinal)).toEqual([1, 0])
  })

  it('are kept from members: only search_document reads them', async () => {
    const { workspaceId } = await createWorld(stack, people)
    await addReadyDocument(stack, people.editor, workspaceId, 'Notes', ['Walrus tusks.'])
    for (const user of [people.viewer, people.editor, people.owner]) {
      const { data, error } = await clientFor(stack, user).from('chunk_search_facts').select('*')
      expect(data).toBeNull()
      expect(error).toMatchObject({ code: '42501' })
    }
    const forged = await clientFor(stack, people.editor)
      .from('chunk_search_facts')
      .insert({ chunk_id: crypto.randomUUID(), words: 1, heading_terms: [] })
    expect(forged.error).toMatchObject({ code: '42501' })
    expect(await staleFacts(workspaceId)).toBe(0)
  })
})
