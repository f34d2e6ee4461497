import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { sharedData } from '../testing/shared-data.ts'
import { processFile } from './process-file.ts'
import { safeFileName } from './storage-path.ts'

describe('processFile', () => {
  it('replaces NUL (which Postgres text refuses) without moving any offset', async () => {
    // This filing maps the "ti" ligature to U+0000 on its last pages ("effec\0ve").
    const name = 'AMERICANEXPRESS_2022_10K.pdf'
    const bytes = new Uint8Array(readFileSync(new URL(`financebench-pdfs/${name}`, sharedData)))
    const { text, chunks, pageCount } = await processFile({ bytes, fileName: name })
    expect(pageCount).toBe(260)
    expect(text).not.toContain('\0')
    expect(text).toContain('effec\uFFFDve')
    for (const chunk of chunks) {
      expect(text.slice(chunk.charStart, chunk.charEnd)).toBe(chunk.content)
    }
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
