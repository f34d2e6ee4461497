import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { getDocumentProxy } from 'unpdf'
import { describe, expect, it } from 'vitest'
import { chunkDocument } from '../chunk/chunk-document.ts'
import { sharedData } from '../testing/shared-data.ts'
import { extractDocument } from './extract-document.ts'

// Twelve real SEC filings (1,477 pages). Every file: page count equals pages.tsv, and a sample
// of chunks is checked against pdf.js's own text of the pages the chunk claims (read apart
// from our line assembly, header dropping and hyphen repair).
const folder = fileURLToPath(new URL('financebench-pdfs/', sharedData))
const expected = readFileSync(`${folder}pages.tsv`, 'utf8')
  .trim()
  .split('\n')
  .map((line) => line.split('\t'))
  .map(([pages, file]) => ({ file: file!, pages: Number(pages) }))
const SAMPLED_CHUNKS = 12

/** Letters and digits only, lower-cased: layout, hyphens and spacing differ between readers. */
const squash = (text: string) => text.toLowerCase().replace(/[^\p{L}\p{N}]/gu, '')

/**
 * A text's letters and digits cut in 40-character windows from its start (or end). The viewer
 * aligns a passage with a page's text items by the first of its windows the page holds
 * (match-passage.ts): table cells are not all in content order (a row's cells drawn column by
 * column, column titles drawn after the table, a group title repeated over its columns), so a
 * chunk opening in a table may align only by a later window.
 */
function windows(text: string, at: 'start' | 'end'): string[] {
  const letters = squash(text)
  const count = Math.ceil(letters.length / 40)
  return Array.from({ length: count }, (_, k) =>
    at === 'start'
      ? letters.slice(40 * k, 40 * k + 40)
      : letters.slice(Math.max(0, letters.length - 40 * (k + 1)), letters.length - 40 * k),
  )
}

describe('financebench PDFs', () => {
  it('lists twelve files', () => expect(expected).toHaveLength(12))

  for (const { file, pages } of expected) {
    it(`${file}: ${pages} pages, chunk pages right`, { timeout: 120_000 }, async () => {
      const bytes = new Uint8Array(readFileSync(`${folder}${file}`))
      const doc = await extractDocument({ bytes, fileName: file })
      expect(doc.pages).toHaveLength(pages)
      expect(doc.pages.map((page) => page.number)).toEqual(
        Array.from({ length: pages }, (_, i) => i + 1),
      )

      const chunks = chunkDocument(doc)
      const pdf = await getDocumentProxy(bytes.slice())
      const pageText = async (number: number) =>
        squash(
          (await (await pdf.getPage(number)).getTextContent()).items
            .map((item) => ('str' in item ? item.str : ''))
            .join(''),
        )
      const step = Math.max(1, Math.floor(chunks.length / SAMPLED_CHUNKS))
      for (let i = 0; i < chunks.length; i += step) {
        const { charStart, charEnd, pageStart, pageEnd } = chunks[i]!
        // The chunk's opening words (up to the end of its first page) are on its first page…
        const head = doc.text.slice(charStart, Math.min(charEnd, doc.pages[pageStart - 1]!.end))
        const first = await pageText(pageStart)
        expect(
          windows(head, 'start').some((window) => first.includes(window)),
          `${file} chunk ${i} opens with ${squash(head).slice(0, 120)}`,
        ).toBe(true)
        // …and its closing words (from the start of its last page) on its last.
        const tail = doc.text.slice(Math.max(charStart, doc.pages[pageEnd - 1]!.start), charEnd)
        const last = await pageText(pageEnd)
        expect(
          windows(tail, 'end').some((window) => last.includes(window)),
          `${file} chunk ${i} closes with ${squash(tail).slice(-120)}`,
        ).toBe(true)
        expect(squash(head).length + squash(tail).length).toBeGreaterThan(0)
      }
      await pdf.loadingTask.destroy()
    })
  }
})
