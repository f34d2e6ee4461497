import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ingestFile } from '../../packages/core/src/ingest/ingest-file.ts'
import { clientFor, startStack } from './stack.ts'
import { createPeople, createWorld, type People } from './world.ts'

// Document signals (20260101002700_document_signals.sql): detected at import, edited by
// editors, and a document's context lending its score to its passages in search_chunks.
const stack = await startStack()
afterAll(() => stack.stop())

let people: People
let workspaceId: string
const editor = () => clientFor(stack, people.editor)
const viewer = () => clientFor(stack, people.viewer)

// A hundred lines of filler (no word of any query): each part is a passage of its own, and
// each document has a few more, so that its context counts (a document of one passage has
// none to lend: its passage says it all).
const filler = (tag: string) =>
  Array.from({ length: 100 }, (_, i) => `Line ${tag}${i} was copied into the daybook.`).join('\n')
const doc = (opening: string, middle: string) =>
  new TextEncoder().encode(
    [`# ${opening}`, filler('a'), `## Notes`, middle, filler('b')].join('\n\n'),
  )

const ids: Record<string, string> = {}
async function add(fileName: string, opening: string, middle: string) {
  const result = await ingestFile(editor(), {
    workspaceId,
    bytes: doc(opening, middle),
    fileName,
    mimeType: 'text/markdown',
  })
  if (result.status !== 'ready') throw new Error(JSON.stringify(result))
  ids[fileName] = result.documentId
}

beforeAll(async () => {
  people = await createPeople(stack)
  workspaceId = (await createWorld(stack, people)).workspaceId
  // The orchard's note says more about dues for boats than either harbour report's does.
  await add(
    'HARBOUR_BOARD_2019_ANNUAL.md',
    'Annual report of the Harbour Trust Company for the fiscal year ended December 31, 2019',
    'Dues for fishing boats were raised to twelve crowns.',
  )
  await add(
    'HARBOUR_BOARD_2020_ANNUAL.md',
    'Annual report of the Harbour Trust Company for the fiscal year ended December 31, 2020',
    'Dues for fishing boats were lowered to ten crowns.',
  )
  await add(
    'ORCHARD_GROWERS_2020.md',
    'Orchard Growers Ltd. members report',
    'Dues for fishing boats, and dues for ferries, were paid by the growers.',
  )
}, 120_000)

/** The file names of the documents of the top passages holding `word`, best first. */
async function ranked(query: string, word: string): Promise<string[]> {
  const { data, error } = await viewer().rpc('search_chunks', {
    workspace_id: workspaceId,
    query,
    match_count: 20,
  })
  if (error) throw new Error(error.message)
  const names = Object.fromEntries(Object.entries(ids).map(([name, id]) => [id, name]))
  const rows = data as { document_id: string; snippet: string }[]
  return rows.filter((r) => r.snippet.includes(word)).map((r) => names[r.document_id]!)
}

describe('document signals', () => {
  it('are detected at import: periods and names on the document, the opening beside its text', async () => {
    const { data, error } = await viewer()
      .from('documents')
      .select('periods, names, document_texts(opening)')
      .eq('id', ids['HARBOUR_BOARD_2019_ANNUAL.md']!)
      .single()
    expect(error).toBeNull()
    expect(data).toMatchObject({
      periods: ['2019', 'December 31, 2019'],
      names: ['Harbour Trust Company'],
    })
    expect(JSON.stringify(data)).toContain('Annual report of the Harbour Trust Company')
  })

  it("lend a document's context to its passages: the question's company and year come first", async () => {
    // Passage words alone favour the orchard's note; the harbour reports' context names the
    // company, and their periods the year.
    expect(await ranked('Harbour Trust dues for fishing boats in fiscal 2019', 'Dues')).toEqual([
      'HARBOUR_BOARD_2019_ANNUAL.md',
      'HARBOUR_BOARD_2020_ANNUAL.md',
      'ORCHARD_GROWERS_2020.md',
    ])
    expect((await ranked('Harbour Trust dues for fishing boats FY2020', 'Dues'))[0]).toBe(
      'HARBOUR_BOARD_2020_ANNUAL.md',
    )
    expect((await ranked('dues for fishing boats', 'Dues'))[0]).toBe('ORCHARD_GROWERS_2020.md')
  })

  it('are edited by editors, not viewers, and search follows the edit', async () => {
    const orchard = ids['ORCHARD_GROWERS_2020.md']!
    const refused = await viewer()
      .from('documents')
      .update({ names: ['Harbour Trust Company'] })
      .eq('id', orchard)
      .select('id')
    expect(refused.data).toEqual([])
    const edit = {
      title: 'Harbour Trust fiscal year notes',
      names: ['Harbour Trust Company'],
      periods: ['2019'],
    }
    const edited = await editor()
      .from('documents')
      .update(edit)
      .eq('id', orchard)
      .select('title, names, periods')
      .single()
    expect(edited.data).toEqual(edit)
    // Now the orchard's note is a Harbour Trust document of fiscal 2019 too, and says the most.
    expect((await ranked('Harbour Trust dues for fishing boats in fiscal 2019', 'Dues'))[0]).toBe(
      'ORCHARD_GROWERS_2020.md',
    )
  })

  it('refuse more than the columns hold', async () => {
    const { error } = await editor()
      .from('documents')
      .update({ periods: Array.from({ length: 21 }, (_, i) => String(2000 + i)) })
      .eq('id', ids['ORCHARD_GROWERS_2020.md']!)
    expect(error?.code).toBe('23514')
  })
})

describe('pages as a unit', () => {
  it("puts a page's best passage before the second passage of any page it returns", async () => {
    const client = editor()
    const { data: doc } = await client
      .from('documents')
      .insert({
        workspace_id: workspaceId,
        title: 'Tide tables',
        status: 'ready',
        stage: 'ready',
        page_count: 2,
      })
      .select('id')
      .single()
    const documentId = (doc as { id: string }).id
    const passages: [number, string][] = [
      [1, 'Spring tides and neap tides: spring tides at the full moon.'],
      [1, 'Spring tides and neap tides: spring tides at the new moon.'],
      [1, 'Spring tides and neap tides: spring tides twice a month.'],
      [2, 'Neap tides at the quarter moon.'],
    ]
    const inserted = await client.from('chunks').insert(
      passages.map(([page, content], ordinal) => ({
        document_id: documentId,
        workspace_id: workspaceId,
        ordinal,
        content,
        page_start: page,
        page_end: page,
      })),
    )
    expect(inserted.error).toBeNull()
    const { data, error } = await viewer().rpc('search_chunks', {
      workspace_id: workspaceId,
      query: 'spring and neap tides',
      match_count: 4,
      document_ids: [documentId],
    })
    expect(error).toBeNull()
    const rows = data as { page_start: number; score: number }[]
    expect(rows.map((r) => r.page_start)).toEqual([1, 2, 1, 1])
    // Page 2's passage scores lower: it is placed, not rescored.
    expect(rows[1]!.score).toBeLessThan(rows[2]!.score)
  })
})
