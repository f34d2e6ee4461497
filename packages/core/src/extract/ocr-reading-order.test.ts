import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { getDocumentProxy } from 'unpdf'
import { describe, expect, it } from 'vitest'
import { scannedPdf } from '../testing/scanned-pdf.ts'
import { sharedData } from '../testing/shared-data.ts'
import { TWO_COLUMN_TEXT, twoColumnPdf } from '../testing/two-column-pdf.ts'
import { wordAccuracy, words } from '../testing/word-accuracy.ts'
import { extractPdf } from './pdf.ts'
import { itemsToLines } from './pdf-lines.ts'
import type { OcrEngine, RecognisedLine } from './ocr.ts'
import { createNodeOcr } from './ocr-node.ts'

// Scans made here (200 dpi renders in an image-only PDF) read back by tesseract.js in Node: a
// page takes 5–15 s on two busy cores.
const OCR_TIMEOUT = 180_000

/** The Node engine, keeping what Tesseract itself returned for each page. */
function recordingEngine(seen: RecognisedLine[][]): () => Promise<OcrEngine> {
  return async () => {
    const engine = await createNodeOcr()
    return {
      ...engine,
      recognise: async (png) => {
        const lines = await engine.recognise(png)
        seen.push(lines)
        return lines
      },
    }
  }
}

/** A born-digital page's text, in its content stream's (reading) order. */
async function textLayer(bytes: Uint8Array, number: number): Promise<string> {
  const doc = await getDocumentProxy(bytes.slice(), { verbosity: 0 })
  try {
    return itemsToLines((await (await doc.getPage(number)).getTextContent()).items).join('\n')
  } finally {
    await doc.loadingTask.destroy()
  }
}

describe('OCR reading order', () => {
  it(
    'a two-column scan reads each column whole, title first and the closing paragraph last',
    { timeout: OCR_TIMEOUT },
    async () => {
      const seen: RecognisedLine[][] = []
      const doc = await extractPdf(await scannedPdf(await twoColumnPdf(), [1]), {
        engine: recordingEngine(seen),
      })
      const text = doc.ocr![0]!.lines.map((line) => line.text).join('\n')
      const read = ` ${words(text).join(' ')} `
      const { title, left, right, closing } = TWO_COLUMN_TEXT
      const parts = [title, ...left, ...right, closing]
      // Each sentence comes out as one run of words, in reading order.
      const at = parts.map((part) => read.indexOf(` ${words(part).join(' ')} `))
      const found = at.filter((index) => index >= 0)
      expect(found.length).toBeGreaterThanOrEqual(parts.length - 2)
      expect(found).toEqual([...found].sort((a, b) => a - b))
      expect(at[0]).toBe(0)
      expect(at.at(-1)).toBeGreaterThan(Math.max(...at.slice(0, -1)))
      expect(wordAccuracy(text, parts.join(' '))).toBeGreaterThanOrEqual(0.95)
      // What Tesseract returned ran across the gutter: the fix is ours, not the layout's luck.
      const raw = seen[0]!.map((line) => line.text).join('\n')
      expect(wordAccuracy(raw, parts.join(' '))).toBeLessThan(0.8)
      // A line split at the gutter is boxed within its column.
      const lines = doc.ocr![0]!.lines
      const second = lines.find((line) => line.text.includes('second mill'))!
      expect(second.box[2]).toBeLessThan(0.5)
      const lamp = lines.find((line) => line.text.includes('second lamp'))!
      expect(lamp.box[0]).toBeGreaterThan(0.5)
    },
  )

  it(
    'a two-column handbook page (docling’s amt_handbook_sample p.1) reads as its text layer does',
    { timeout: OCR_TIMEOUT },
    async () => {
      const file = 'docling-testdata/pdf/sources/amt_handbook_sample.pdf'
      const source = new Uint8Array(readFileSync(fileURLToPath(new URL(file, sharedData))))
      const reference = await textLayer(source, 1)
      const seen: RecognisedLine[][] = []
      const doc = await extractPdf(await scannedPdf(source, [1]), { engine: recordingEngine(seen) })
      const read = doc.ocr![0]!.lines.map((line) => line.text).join('\n')
      // Measured: 15 % as Tesseract ordered it (lines across a 12 pt gutter), 92 % reordered.
      const raw = seen[0]!.map((line) => line.text).join('\n')
      expect(wordAccuracy(raw, reference)).toBeLessThan(0.5)
      expect(wordAccuracy(read, reference)).toBeGreaterThanOrEqual(0.85)
    },
  )

  it('a single-column scan keeps Tesseract’s lines exactly', { timeout: OCR_TIMEOUT }, async () => {
    const source = new Uint8Array(
      readFileSync(
        fileURLToPath(new URL('docling-testdata/pdf/sources/multi_page.pdf', sharedData)),
      ),
    )
    const seen: RecognisedLine[][] = []
    const doc = await extractPdf(await scannedPdf(source, [1]), { engine: recordingEngine(seen) })
    const raw = seen[0]!.map((line) => line.text.replace(/\s+/g, ' ').trim())
    expect(raw.length).toBeGreaterThan(10)
    expect(doc.ocr![0]!.lines.map((line) => line.text)).toEqual(raw.filter((line) => line))
  })
})
