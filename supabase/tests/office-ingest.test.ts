import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ingestFile } from '../../packages/core/src/ingest/ingest-file.ts'
import { readShared } from './ingest-helpers.ts'
import { clientFor, startStack } from './stack.ts'
import { createPeople, createWorld, type People } from './world.ts'

const stack = await startStack()
afterAll(() => stack.stop())

let people: People
let workspaceId: string
beforeAll(async () => {
  people = await createPeople(stack)
  workspaceId = (await createWorld(stack, people)).workspaceId
})

const editor = () => clientFor(stack, people.editor)

async function ingest(folder: string, fileName: string, mimeType: string) {
  const bytes = readShared(`docling-testdata/${folder}/sources/${fileName}`)
  const result = await ingestFile(editor(), { workspaceId, bytes, fileName, mimeType })
  if (result.status !== 'ready') throw new Error(`${fileName} ended ${result.status}`)
  const { data: chunks, error } = await editor()
    .from('chunks')
    .select('ordinal, content, page_start, page_end, char_start, char_end')
    .eq('document_id', result.documentId)
    .order('ordinal')
  expect(error).toBeNull()
  const { data: stored } = await editor()
    .from('document_texts')
    .select('text')
    .eq('document_id', result.documentId)
    .single()
  for (const chunk of chunks!) {
    expect(stored!.text.slice(chunk.char_start, chunk.char_end)).toBe(chunk.content)
  }
  return { ...result, chunks: chunks!, text: stored!.text as string }
}

const search = (query: string, types?: string[]) =>
  clientFor(stack, people.viewer).functions.invoke<{
    results: { document_id: string; ordinal: number; page_start: number | null }[]
  }>('search', { body: { workspace_id: workspaceId, query, ...(types ? { types } : {}) } })

describe('slides and spreadsheets through supabase-js', () => {
  it('a PPTX is ready with a page per slide; its passages keep their slide and are found by kind', async () => {
    const deck = await ingest(
      'pptx',
      'powerpoint_sample.pptx',
      'application/vnd.openxmlformats-officedocument.presentationml.presentation',
    )
    expect(deck.pageCount).toBe(3)
    const { data: doc } = await editor()
      .from('documents')
      .select('title, page_count, mime_type')
      .eq('id', deck.documentId)
      .single()
    expect(doc).toMatchObject({ page_count: 3 })
    expect(deck.text).toContain('# Slide 2: Second slide title')
    for (const chunk of deck.chunks) expect(chunk.page_start).toBe(chunk.page_end)
    const notes = deck.chunks.find((chunk) =>
      chunk.content.includes('Some notes on the second slide'),
    )
    expect(notes?.page_start).toBe(2)

    const found = await search('rectangle shape', ['pptx'])
    expect(found.error).toBeNull()
    expect(found.data!.results[0]).toMatchObject({ document_id: deck.documentId, page_start: 2 })
    const notPdf = await search('rectangle shape', ['pdf'])
    expect(notPdf.data!.results).toEqual([])
  })

  it('an XLSM is ready with each sheet a table; a search by kind finds a cell value with its row', async () => {
    const book = await ingest(
      'xlsx',
      'xlsx_02_sample_sales_data.xlsm',
      'application/vnd.ms-excel.sheet.macroEnabled.12',
    )
    expect(book.pageCount).toBe(1)
    expect(book.text).toMatch(/^## SalesData\n\n\| Product \| Date \| Quantity \| Revenue \|/)
    const found = await search('15000', ['xlsx'])
    expect(found.error).toBeNull()
    const hit = found.data!.results[0]
    expect(hit?.document_id).toBe(book.documentId)
    const passage = book.chunks.find((chunk) => chunk.ordinal === hit!.ordinal)
    expect(passage?.content).toContain('| Widget C | 2024-01-07 0:00:00 | 12 | 15000 |')
  })
})
