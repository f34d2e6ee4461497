import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { sharedData } from '../testing/shared-data.ts'
import { processFile } from './process-file.ts'
import { safeFileName } from './storage-path.ts'

describe('processFile', () => {
  it('spells out ligatures the PDF maps to NUL, keeping chunks and pages exact', async () => {
    // This filing's Calibri maps its ft, ti and tt glyphs to U+0000 on its last pages
    // ("effec\0ve", "a\0er", "Commi\0ee"); the same words are written out on other pages.
    const name = 'AMERICANEXPRESS_2022_10K.pdf'
    const bytes = new Uint8Array(readFileSync(new URL(`financebench-pdfs/${name}`, sharedData)))
    const { text, chunks, pageCount } = await processFile({ bytes, fileName: name })
    expect(pageCount).toBe(260)
    expect(text).not.toContain('\0')
    expect(text).toContain('(As amended and restated effective January 1, 2023)')
    for (const phrase of ['Section 1. Effective Date', 'the Committee', 'after', 'attributable']) {
      expect(text).toContain(phrase)
    }
    // A few words are spelled nowhere else in the filing: they keep a replacement character.
    const unknown = text.match(/\p{L}*\uFFFD\p{L}*/gu) ?? []
    expect(unknown.length).toBeGreaterThan(0)
    expect(unknown.length).toBeLessThan(30)
    for (const chunk of chunks) {
      expect(text.slice(chunk.charStart, chunk.charEnd)).toBe(chunk.content)
    }
    const plan = chunks.find((c) => c.content.includes('DEFERRED COMPENSATION PLAN FOR DIRECTORS'))
    expect(plan!.pageStart).toBeLessThanOrEqual(176)
    expect(plan!.pageEnd).toBeGreaterThanOrEqual(176)
    expect(chunks.at(-1)!.pageEnd).toBe(260)
  })
})

describe('safeFileName', () => {
  it('keeps the last path segment with Storage-safe characters, never empty or hidden', () => {
    expect(safeFileName('a/b\\Q3 report (final).pdf')).toBe('Q3 report (final).pdf')
    expect(safeFileName('résumé#1?.docx')).toBe('r_sum__1_.docx')
    expect(safeFileName('..')).toBe('file')
    expect(safeFileName('.env')).toBe('env')
    const long = safeFileName(`${'x'.repeat(300)}.pdf`)
    expect(long).toHaveLength(200)
    expect(long.endsWith('x.pdf')).toBe(true)
  })
})
