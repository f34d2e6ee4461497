import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ingestFile } from '../../packages/core/src/ingest/ingest-file.ts'
import { statementPdf } from '../../packages/core/src/testing/statement-pdf.ts'
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

describe('a PDF with a table', () => {
  it('is stored as Markdown table rows under their header, each passage naming the header', async () => {
    const editor = clientFor(stack, people.editor)
    const result = await ingestFile(editor, {
      workspaceId,
      bytes: statementPdf(60),
      fileName: 'statement.pdf',
      mimeType: 'application/pdf',
    })
    expect(result).toMatchObject({ status: 'ready', pageCount: 1 })
    if (result.status !== 'ready') return
    const { data: chunks, error } = await editor
      .from('chunks')
      .select('content, heading_path, page_start, page_end')
      .eq('document_id', result.documentId)
      .order('ordinal')
    expect(error).toBeNull()
    expect(chunks!.length).toBeGreaterThan(1)
    const header = '| | 2019 | 2018 |'
    expect(chunks![0]!.content).toContain(
      `${header}\n| --- | --- | --- |\n| Line item 1 | 1,000 | 900 |`,
    )
    const later = chunks!.slice(1)
    for (const chunk of later) {
      expect(chunk.content).toMatch(/^\| Line item \d+ \| [\d,]+ \| [\d,]+ \|$/m)
      expect(chunk.content.split('\n').every((line: string) => /^\| .* \|$/.test(line))).toBe(true)
      expect(chunk.heading_path).toEqual([header])
      expect([chunk.page_start, chunk.page_end]).toEqual([1, 1])
    }
    expect(later.at(-1)!.content).toMatch(/\| Line item 60 \| 3,183 \| 2,611 \|$/)
  })

  it('finds every passage of a long table by a word of its header row, each content unchanged', async () => {
    const editor = clientFor(stack, people.editor)
    const result = await ingestFile(editor, {
      workspaceId,
      // Not the first test's file, which would be refused as a duplicate.
      bytes: statementPdf(61),
      fileName: 'header.pdf',
      mimeType: 'application/pdf',
    })
    if (result.status !== 'ready') throw new Error(`not ready: ${JSON.stringify(result)}`)
    const { data: chunks } = await editor
      .from('chunks')
      .select('id, content, char_start, char_end')
      .eq('document_id', result.documentId)
      .order('ordinal')
    const { data: text } = await editor
      .from('document_texts')
      .select('text')
      .eq('document_id', result.documentId)
      .single()
    // Only the first passage holds the header row ('| | 2019 | 2018 |'): the others are found
    // by it all the same, and their content is still the exact slice the viewer highlights.
    expect(chunks!.filter((c) => c.content.includes('2019'))).toHaveLength(1)
    for (const c of chunks!) expect(c.content).toBe(text!.text.slice(c.char_start, c.char_end))
    const { data: found, error } = await editor.rpc('search_chunks', {
      workspace_id: workspaceId,
      query: '2019',
      match_count: 50,
      document_ids: [result.documentId],
      snippets: false,
    })
    expect(error).toBeNull()
    const ids = (found as { chunk_id: string }[]).map((row) => row.chunk_id)
    expect(new Set(ids)).toEqual(new Set(chunks!.map((c) => c.id)))
  })

  it("indexes a passage by its table's title and header row, and any other by its content", async () => {
    const editor = clientFor(stack, people.editor)
    const indexText = async (heading_path: string[]) => {
      const { data, error } = await editor.rpc('chunk_index_text', {
        heading_path,
        content: '| Inventories | 5,409 |',
      })
      expect(error).toBeNull()
      return data
    }
    expect(await indexText(['Balance Sheets', '| | 2019 |'])).toBe(
      'Balance Sheets\n| | 2019 |\n| Inventories | 5,409 |',
    )
    expect(await indexText(['| | 2019 |'])).toBe('| | 2019 |\n| Inventories | 5,409 |')
    // Headings alone (prose, a table's first passage) are not indexed with the passage.
    expect(await indexText(['Annual report', 'Assets'])).toBe('| Inventories | 5,409 |')
    expect(await indexText([])).toBe('| Inventories | 5,409 |')
  })
})
