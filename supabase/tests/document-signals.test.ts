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

// Forty lines of filler (no word of any query), so each part is a passage of its own.
const filler = (tag: string) =>
  Array.from({ length: 40 }, (_, i) => `Line ${tag}${i} was copied into the daybook.`).join('\n')
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
    'Dues for fishing boats and dues for ferries were paid by the growers for fishing boats.',
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
    const edited = await editor()
      .from('documents')
      .update({ names: ['Harbour Trust Company'], periods: ['2019'] })
      .eq('id', orchard)
      .select('names, periods')
      .single()
    expect(edited.data).toEqual({ names: ['Harbour Trust Company'], periods: ['2019'] })
    // Now the orchard's note is a Harbour Trust document of 2019 too, and says the most.
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
