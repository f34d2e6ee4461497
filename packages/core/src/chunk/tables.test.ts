import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { encode } from 'gpt-tokenizer/encoding/cl100k_base'
import { describe, expect, it } from 'vitest'
import { extractDocument } from '../extract/extract-document.ts'
import { sharedData } from '../testing/shared-data.ts'
import { statementPdf } from '../testing/statement-pdf.ts'
import { chunkDocument, type Chunk } from './chunk-document.ts'

const utf8 = (text: string) => new TextEncoder().encode(text)

/** A vendor list whose notes hold sentence ends, which must not pass for record ends. */
function vendorsCsv(count: number): string {
  const rows = Array.from({ length: count }, (_, i) => {
    const note = i % 3 === 0 ? 'Paid in full. Next review in May' : 'Renewal pending'
    return `Vendor ${i},Owner ${i},${note},${1000 + i * 7}`
  })
  return ['vendor,owner,note,amount', ...rows].join('\n')
}

/**
 * The text as the chunker's budget counts it: a GFM table row as its cells' words, each after
 * one space (no pipes, no delimiter row, no line break or blank line before it); other lines
 * as they are.
 */
function budgetText(text: string): string {
  let budget = ''
  for (const [i, line] of text.split('\n').entries()) {
    if (!line.startsWith('|')) budget += i === 0 ? line : `\n${line}`
    else {
      budget = budget.trimEnd()
      for (const word of line.split(/\s+/)) if (word && !/^[|:-]+$/.test(word)) budget += ` ${word}`
    }
  }
  return budget
}

const startsOnLine = (text: string, at: number) => at === 0 || text[at - 1] === '\n'
const endsOnLine = (text: string, at: number) => at === text.length || text[at] === '\n'

describe('tables chunk by rows', () => {
  it('cuts CSV between records, each passage and its overlap whole records', async () => {
    const doc = await extractDocument({ bytes: utf8(vendorsCsv(150)), fileName: 'vendors.csv' })
    for (const options of [{}, { maxTokens: 100, overlapTokens: 40 }]) {
      const chunks = chunkDocument(doc, options)
      expect(chunks.length).toBeGreaterThan(2)
      for (const chunk of chunks) {
        expect(startsOnLine(doc.text, chunk.charStart), chunk.content).toBe(true)
        expect(endsOnLine(doc.text, chunk.charEnd), chunk.content).toBe(true)
        // Every record in it is one vendor's, whole: its owner and amount are its own.
        for (const record of chunk.content.split('\n\n')) {
          expect(record).toMatch(
            /^vendor: Vendor (\d+); owner: Owner \1; note: [^;]+; amount: \d+$/,
          )
        }
        // The record form names the columns: no header line is needed as context.
        expect(chunk.headingPath).toEqual([])
      }
      // The overlap is kept, from a record start.
      expect(chunks.some((chunk, i) => i > 0 && chunk.charStart < chunks[i - 1]!.charEnd)).toBe(
        true,
      )
    }
  })

  it('cuts a Word table between rows and gives each passage its header row', async () => {
    const file = new URL('docling-testdata/docx/sources/docx_rich_tables_01.docx', sharedData)
    const doc = await extractDocument({
      bytes: new Uint8Array(readFileSync(fileURLToPath(file))),
      fileName: 'docx_rich_tables_01.docx',
    })
    const header = '| **Feature** | **Action Needed** | **Comment/Links** |'
    const tableStart = doc.text.indexOf(header)
    expect(tableStart).toBeGreaterThan(0)
    const chunks = chunkDocument(doc)
    const inTable = chunks.filter((chunk) => chunk.charStart > tableStart + header.length)
    expect(inTable.length).toBeGreaterThan(3)
    for (const chunk of inTable) {
      expect(chunk.content.startsWith('| ')).toBe(true)
      expect(startsOnLine(doc.text, chunk.charStart)).toBe(true)
      expect(endsOnLine(doc.text, chunk.charEnd)).toBe(true)
      expect(chunk.headingPath.at(-1)).toBe(header)
      expect(doc.text.slice(chunk.charStart, chunk.charEnd)).toBe(chunk.content)
    }
    // The passage holding the header itself needs no copy of it, nor ends right under it.
    const opening = chunks.find((chunk) => chunk.content.includes(header))!
    expect(opening.headingPath).not.toContain(header)
    expect(opening.content).not.toMatch(/\| --- \|\s*$/)
  })

  it('names the header of the table a passage starts in, when several follow', async () => {
    const markdown = [
      '# Prices',
      '',
      '| fruit | price |',
      '| --- | --- |',
      ...Array.from({ length: 40 }, (_, i) => `| apple ${i} | ${i} |`),
      '',
      '| tool | weight |',
      '| --- | --- |',
      ...Array.from({ length: 40 }, (_, i) => `| hammer ${i} | ${i} kg |`),
    ].join('\n')
    const chunks = chunkDocument(
      { text: markdown, pages: [{ number: 1, start: 0, end: markdown.length }] },
      { maxTokens: 80, overlapTokens: 0 },
    )
    const headerOf = (chunk: Chunk) => chunk.headingPath.slice(1)
    for (const chunk of chunks) {
      expect(chunk.headingPath[0]).toBe('Prices')
      const first = chunk.content.split('\n')[0]!
      if (first.startsWith('| apple')) expect(headerOf(chunk)).toEqual(['| fruit | price |'])
      else if (first.startsWith('| hammer')) expect(headerOf(chunk)).toEqual(['| tool | weight |'])
      else expect(headerOf(chunk)).toEqual([])
    }
    expect(chunks.filter((chunk) => chunk.content.startsWith('| hammer')).length).toBeGreaterThan(1)
  })

  it('cuts a PDF table rebuilt from positions between rows, each passage with its header row', async () => {
    const doc = await extractDocument({ bytes: statementPdf(50), fileName: 'statement.pdf' })
    const header = '| | 2019 | 2018 |'
    expect(doc.text).toContain(`${header}\n| --- | --- | --- |\n| Line item 1 | 1,000 | 900 |`)
    const chunks = chunkDocument(doc, { maxTokens: 120, overlapTokens: 30 })
    const rows = chunks.filter((chunk) => chunk.content.startsWith('| Line item'))
    expect(rows.length).toBeGreaterThan(3)
    for (const chunk of chunks) {
      // No row is cut: every table line of a passage is whole.
      for (const line of chunk.content.split('\n').filter((l) => l.startsWith('|'))) {
        expect(line).toMatch(
          /^\| (?:Line item \d+ \| [\d,]+ \| [\d,]+|--- \| --- \| ---|\| 2019 \| 2018) \|$/,
        )
      }
    }
    for (const chunk of rows) {
      expect(startsOnLine(doc.text, chunk.charStart)).toBe(true)
      expect(endsOnLine(doc.text, chunk.charEnd)).toBe(true)
      expect(chunk.headingPath).toEqual([header])
    }
  })
  it("counts a table by its cells' words: a passage holds as many as the same rows as prose", () => {
    const cells = Array.from({ length: 60 }, (_, i) => [
      `Net revenue ${i}`,
      `${1000 + i}`,
      `${900 + i}`,
    ])
    const table = [
      '| Measure | 2019 | 2018 |',
      '| --- | --- | --- |',
      ...cells.map((row) => `| ${row.join(' | ')} |`),
    ].join('\n')
    const prose = ['Measure 2019 2018', ...cells.map((row) => row.join(' '))].join('\n')
    const options = { maxTokens: 100, overlapTokens: 0 }
    const chunked = (text: string) =>
      chunkDocument({ text, pages: [{ number: 1, start: 0, end: text.length }] }, options)
    const tableChunks = chunked(table)
    const proseChunks = chunked(prose)
    // No more passages than the prose needs, each as full: the pipes cost nothing.
    expect(tableChunks.length).toBeLessThanOrEqual(proseChunks.length)
    const rows = (chunk: Chunk) => chunk.content.split('\n').filter((l) => /^\|? ?Net/.test(l))
    for (const [i, chunk] of tableChunks.slice(0, -1).entries())
      expect(rows(chunk).length).toBeGreaterThanOrEqual(rows(proseChunks[i]!).length)
    // Within the budget counted exactly; tokenCount, its pipes included, at most a token a
    // row over the exact size (the chunker adds up its words' counts).
    for (const chunk of tableChunks) {
      expect(encode(budgetText(chunk.content)).length).toBeLessThanOrEqual(100)
      const exact = encode(chunk.content).length
      expect(chunk.tokenCount).toBeGreaterThanOrEqual(exact)
      expect(chunk.tokenCount).toBeLessThanOrEqual(exact + chunk.content.split('\n').length)
    }
    expect(Math.max(...tableChunks.map((c) => c.tokenCount))).toBeGreaterThan(100)
    // A table of empty cells is nearly all syntax: its chunks still stay within twice the budget.
    const empty = Array.from({ length: 400 }, () => '| | | | | | |').join('\n')
    const emptyChunks = chunked(`| a | b | c | d | e | f |\n|---|---|---|---|---|---|\n${empty}`)
    expect(emptyChunks.length).toBeGreaterThan(10)
    for (const chunk of emptyChunks) {
      expect(chunk.tokenCount).toBeLessThanOrEqual(200)
      expect(encode(chunk.content).length).toBeLessThanOrEqual(chunk.tokenCount)
    }
  })
  it('ends a passage before a table and its title rather than a few rows into it', () => {
    const prose = Array.from(
      { length: 8 },
      (_, i) => `Paragraph ${i} says how the figures were audited and what they cover.`,
    ).join(' ')
    const rows = Array.from({ length: 30 }, (_, i) => `| Line item ${i} | ${100 + i} | ${90 + i} |`)
    const text = [
      prose,
      '',
      'Balance Sheets\n$ in millions',
      '',
      '| | 2019 | 2018 |',
      '| --- | --- | --- |',
      ...rows,
    ].join('\n')
    const chunks = chunkDocument(
      { text, pages: [{ number: 1, start: 0, end: text.length }], format: 'pdf' },
      { maxTokens: 200, overlapTokens: 40 },
    )
    // The prose alone fills over half a passage: it ends there, the title opens the next one.
    expect(chunks[0]!.content).toBe(prose)
    expect(
      chunks[1]!.content.startsWith('Balance Sheets\n$ in millions\n\n| | 2019 | 2018 |'),
    ).toBe(true)
    // A long paragraph right above a table is no title: the cut goes right before the table.
    const long = `${prose}\n\n${text.slice(text.indexOf('| |'))}`
    const [first, second] = chunkDocument(
      { text: long, pages: [{ number: 1, start: 0, end: long.length }], format: 'pdf' },
      { maxTokens: 200, overlapTokens: 40 },
    )
    expect(first!.content).toBe(prose)
    expect(second!.content.startsWith('| | 2019 | 2018 |')).toBe(true)
  })

  it("opens a table's passage with its title, not with the last row of the one before", async () => {
    // Johnson & Johnson's Q2 2023 earnings release: page 20's table follows page 19's, whose
    // last row the overlap would carry alone.
    const file = new URL('financebench-pdfs/JOHNSON_JOHNSON_2023Q2_EARNINGS.pdf', sharedData)
    const doc = await extractDocument({
      bytes: new Uint8Array(readFileSync(fileURLToPath(file))),
      fileName: 'JOHNSON_JOHNSON_2023Q2_EARNINGS.pdf',
    })
    const chunks = chunkDocument(doc)
    const opening = (text: string) => chunks.find((chunk) => chunk.content.includes(text))!
    const page20 = opening('| SURGERY |')
    expect(page20.pageStart).toBe(20)
    expect(page20.content.startsWith('REPORTED SALES vs. PRIOR PERIOD ($MM)\n\n| |')).toBe(true)
  })

  it('takes no title for a PDF table from the page before its own', () => {
    // American Express's 2022 10-K ends page 168 with stray footnote marks and its page number
    // ("(a) (a) (a)", "A-1"); page 169 opens with a table.
    const prose = Array.from(
      { length: 8 },
      (_, i) => `Line ${i} of a paragraph wrapped as a PDF page wraps it, about the yields.`,
    ).join('\n')
    const page1 = `${prose}\n(a) (a) (a)\nA-1`
    const rows = Array.from({ length: 40 }, (_, i) => `| Item ${i} | ${100 + i} | ${90 + i} |`)
    const page2 = ['', '| (Millions) | 2022 | 2021 |', '| --- | --- | --- |', ...rows].join('\n')
    const text = `${page1}\n\n${page2}`
    const pages = [
      { number: 1, start: 0, end: page1.length },
      { number: 2, start: page1.length + 2, end: text.length },
    ]
    const chunks = chunkDocument(
      { text, pages, format: 'pdf' },
      { maxTokens: 200, overlapTokens: 40 },
    )
    const table = chunks.find((chunk) => chunk.content.includes('| (Millions) |'))!
    expect(table.content.startsWith('| (Millions) |')).toBe(true)
    expect(table.pageStart).toBe(2)
    for (const chunk of chunks.filter((c) => c.charStart > table.charStart)) {
      expect(chunk.headingPath).toEqual(['| (Millions) | 2022 | 2021 |'])
    }
  })

  it('takes up to four short lines above a PDF table as its title', () => {
    const prose = Array.from(
      { length: 8 },
      (_, i) => `Line ${i} of a paragraph wrapped as a PDF page wraps it, about the plans`,
    ).join('\n')
    const title = [
      'Estimated Future Benefit Payments',
      'The benefit payments to retirees are expected to be paid as follows:',
      '(dollars in millions)',
    ].join('\n')
    const rows = Array.from({ length: 90 }, (_, i) => `| ${2022 + i} | ${100 + i} | ${90 + i} |`)
    const table = ['| Year | Pension | Health Care |', '| --- | --- | --- |', ...rows].join('\n')
    const text = `${prose}. It ends here.\n${title}\n\n${table}`
    const chunks = chunkDocument(
      { text, pages: [{ number: 1, start: 0, end: text.length }], format: 'pdf' },
      { maxTokens: 200, overlapTokens: 40 },
    )
    expect(chunks[0]!.content.endsWith('It ends here.')).toBe(true)
    expect(chunks[1]!.content.startsWith(`${title}\n\n| Year |`)).toBe(true)
    expect(chunks[1]!.headingPath).toEqual([])
    // The passages further down the table name its title (as one line) and header row.
    const later = chunks.slice(2)
    expect(later.length).toBeGreaterThan(0)
    for (const chunk of later) {
      expect(chunk.content).toMatch(/^\| \d{4} \|/)
      expect(chunk.headingPath).toEqual([
        'Estimated Future Benefit Payments The benefit payments to retirees are expected to be paid as follows: (dollars in millions)',
        '| Year | Pension | Health Care |',
      ])
    }
  })

  it('keeps tables between prose and page lines within the budget, counted exactly', () => {
    // Lists of subsidiaries broken by page numbers and blank lines, as a filing's exhibit is.
    const parts = Array.from({ length: 12 }, (_, p) => [
      `Page ${p + 1}`,
      '',
      '',
      ...Array.from(
        { length: 9 },
        (_, r) => `| Amex (Middle East) ${p}.${r} LLC* | Qatar | Qatar |`,
      ),
      '',
    ])
    const text = parts.flat().join('\n')
    for (const maxTokens of [40, 75, 120]) {
      const chunks = chunkDocument(
        { text, pages: [{ number: 1, start: 0, end: text.length }], format: 'pdf' },
        { maxTokens, overlapTokens: 10 },
      )
      expect(chunks.length).toBeGreaterThan(3)
      for (const chunk of chunks) {
        expect(encode(budgetText(chunk.content)).length).toBeLessThanOrEqual(maxTokens)
        expect(chunk.tokenCount).toBeGreaterThanOrEqual(encode(chunk.content).length)
      }
    }
  })
})
