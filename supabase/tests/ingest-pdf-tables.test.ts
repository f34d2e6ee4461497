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
})
