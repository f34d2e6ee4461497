import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { extractDocument } from '../extract/extract-document.ts'
import { sharedData } from '../testing/shared-data.ts'
import { readableText } from './process-file.ts'

// The AmEx 10-K's exhibits are set in a Calibri whose ft, ti and tt ligatures map to U+0000:
// 589 lost glyphs in the raw text. Only "fi\0een" (fifteen: no word of its family is in the
// filing) is left for U+FFFD, three times.
const file = fileURLToPath(new URL('financebench-pdfs/AMERICANEXPRESS_2022_10K.pdf', sharedData))

describe('ligature repair on a real PDF', () => {
  it('spells out the lost ligatures of the AmEx 10-K', { timeout: 120_000 }, async () => {
    const raw = await extractDocument({
      bytes: new Uint8Array(readFileSync(file)),
      fileName: 'AMERICANEXPRESS_2022_10K.pdf',
    })
    expect(raw.text.match(/\0/g)).toHaveLength(589)
    const { text, pages } = readableText(raw)
    expect(text.match(/\uFFFD/g)).toHaveLength(3)
    expect(text).toContain('the meetings of the Board and meetings of the committees')
    expect(text).toContain('election or reelection to the Board')
    expect(text).toContain('for the last fi\uFFFDeen (15) trading days')
    // Pages still tile the text after the repairs moved them.
    expect(pages.at(-1)!.end).toBe(text.length)
    for (const [i, page] of pages.entries())
      if (i > 0) expect(page.start).toBe(pages[i - 1]!.end + 2)
  })
})
