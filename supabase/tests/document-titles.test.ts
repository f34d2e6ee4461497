import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ingestFile } from '../../packages/core/src/ingest/ingest-file.ts'
import { clientFor, startStack } from './stack.ts'
import { createPeople, createWorld, type People } from './world.ts'

// Readable titles and file names (20260101003000_document_file_names.sql): import titles a
// document from its file name made readable and keeps the file name; editors retitle it,
// viewers cannot; the file name stays in what its passages are found by.
const stack = await startStack()
afterAll(() => stack.stop())

let people: People
let workspaceId: string
const editor = () => clientFor(stack, people.editor)
const viewer = () => clientFor(stack, people.viewer)

// Enough lines for several passages, so that the document has a context (see
// 20260101002700_document_signals.sql), with `daybooks` times "daybook" in each line; the file
// lines are tagged by the document's number, so no two documents are duplicates.
const text = (tag: string, daybooks: number) =>
  new TextEncoder().encode(
    Array.from(
      { length: 120 },
      (_, i) => `Line ${tag}${i} was copied into the ${'daybook '.repeat(daybooks)}by the clerk.`,
    ).join('\n\n'),
  )

let added = 0
async function add(fileName: string, daybooks = 1) {
  const result = await ingestFile(editor(), {
    workspaceId,
    bytes: text(`n${added++}x`, daybooks),
    fileName,
    mimeType: 'text/markdown',
  })
  if (result.status !== 'ready') throw new Error(JSON.stringify(result))
  return result.documentId
}

beforeAll(async () => {
  people = await createPeople(stack)
  workspaceId = (await createWorld(stack, people)).workspaceId
}, 60_000)

describe('document titles', () => {
  it('are the file name made readable at import, with the file name kept beside them', async () => {
    const id = await add('ZEPHYRINE_HARBOUR_2023Q2_LEDGER.md')
    const { data, error } = await viewer()
      .from('documents')
      .select('title, file_name')
      .eq('id', id)
      .single()
    expect(error).toBeNull()
    expect(data).toEqual({
      title: 'Zephyrine Harbour 2023 Q2 Ledger',
      file_name: 'ZEPHYRINE_HARBOUR_2023Q2_LEDGER.md',
    })
  })

  it('take the title as file name when a client gives none', async () => {
    const { data, error } = await editor()
      .from('documents')
      .insert({ workspace_id: workspaceId, title: 'minutes.txt' })
      .select('title, file_name')
      .single()
    expect(error).toBeNull()
    expect(data).toEqual({ title: 'minutes.txt', file_name: 'minutes.txt' })
    const blank = await editor()
      .from('documents')
      .insert({ workspace_id: workspaceId, title: 'Minutes', file_name: '  ' })
    expect(blank.error?.code).toBe('23514')
  })

  it('are changed by editors, not by viewers; the file name stays', async () => {
    const id = await add('tide_tables.md')
    const refused = await viewer()
      .from('documents')
      .update({ title: 'Not yours to name' })
      .eq('id', id)
      .select('id')
    expect(refused.error).toBeNull()
    expect(refused.data).toEqual([])
    const edited = await editor()
      .from('documents')
      .update({ title: 'Tide tables for the outer harbour' })
      .eq('id', id)
      .select('title, file_name')
      .single()
    expect(edited.data).toEqual({
      title: 'Tide tables for the outer harbour',
      file_name: 'tide_tables.md',
    })
    const read = await viewer().from('documents').select('title').eq('id', id).single()
    expect(read.data).toEqual({ title: 'Tide tables for the outer harbour' })
  })

  it("keep the file name in what the document's passages are found by after a new title", async () => {
    // The other document says "daybook" more often: only the file name's word can lift this one.
    const named = await add('QUILLWORT_ACCOUNTS.md')
    const other = await add('other_notes.md', 3)
    const retitled = await editor()
      .from('documents')
      .update({ title: 'Accounts' })
      .eq('id', named)
      .select('id')
    expect(retitled.data).toHaveLength(1)
    const top = async (query: string) => {
      const { data, error } = await viewer().rpc('search_chunks', {
        workspace_id: workspaceId,
        query,
        match_count: 5,
      })
      expect(error).toBeNull()
      return (data as { document_id: string; title: string }[])[0]
    }
    expect(await top('daybook')).toMatchObject({ document_id: other })
    expect(await top('quillwort daybook')).toMatchObject({ document_id: named, title: 'Accounts' })
  })
})
