import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { getDocumentProxy } from 'unpdf'
import { extractPdf } from '../extract/pdf.ts'
import { itemsToLines } from '../extract/pdf-lines.ts'
import type { OcrEngine } from '../extract/ocr.ts'
import { scannedPdf } from './scanned-pdf.ts'
import { sharedData } from './shared-data.ts'
import { wordAccuracy } from './word-accuracy.ts'

/** A born-digital page whose text layer is the truth for its scan. */
export interface OcrFixture {
  /** Under ../shared/data. */
  file: string
  page: number
}

/**
 * Clean English prose (a scan's reading order matches the text layer's): the test's few, kept
 * small since a page takes 5–15 s on two busy cores.
 */
export const TEST_PAGES: OcrFixture[] = [
  { file: 'docling-testdata/pdf/sources/multi_page.pdf', page: 1 },
  { file: 'financebench-pdfs/AMERICANEXPRESS_2022_10K.pdf', page: 5 },
]

/**
 * More pages for `npm run eval:ocr`, harder ones included: a form-like cover page (columns read
 * in another order), two columns with figures, a paper page with a table, 8 pt filing text.
 */
export const EVAL_PAGES: OcrFixture[] = [
  ...TEST_PAGES,
  { file: 'docling-testdata/pdf/sources/multi_page.pdf', page: 2 },
  { file: 'docling-testdata/pdf/sources/amt_handbook_sample.pdf', page: 1 },
  { file: 'docling-testdata/pdf/sources/2305.03393v1-pg9.pdf', page: 1 },
  { file: 'docling-testdata/pdf/sources/redp5110_sampled.pdf', page: 2 },
  { file: 'financebench-pdfs/AMCOR_2022_8K_dated-2022-07-01.pdf', page: 1 },
  { file: 'financebench-pdfs/AMAZON_2017_10K.pdf', page: 4 },
  { file: 'financebench-pdfs/BESTBUY_2019_10K.pdf', page: 6 },
  { file: 'financebench-pdfs/GENERALMILLS_2019_10K.pdf', page: 5 },
  { file: 'financebench-pdfs/JOHNSON_JOHNSON_2023Q2_EARNINGS.pdf', page: 1 },
]

export interface OcrScore extends OcrFixture {
  accuracy: number
  words: number
  ms: number
}

/**
 * Scans the fixture page at 200 dpi into an image-only PDF, reads it back through extractPdf
 * with OCR, and scores the recognised lines against the original page's text layer (raw lines,
 * before header dropping or hyphen repair, which a one-page scan would not get the same way).
 */
export async function scoreFixture(
  fixture: OcrFixture,
  engine: () => Promise<OcrEngine>,
): Promise<OcrScore> {
  const bytes = new Uint8Array(readFileSync(fileURLToPath(new URL(fixture.file, sharedData))))
  const reference = await referenceText(bytes, fixture.page)
  const scan = await scannedPdf(bytes, [fixture.page])
  const started = performance.now()
  const doc = await extractPdf(scan, { engine })
  const ms = performance.now() - started
  const recognised = (doc.ocr ?? []).flatMap((page) => page.lines.map((line) => line.text))
  return {
    ...fixture,
    accuracy: wordAccuracy(recognised.join('\n'), reference),
    words: reference.split(/\s+/).length,
    ms,
  }
}

async function referenceText(bytes: Uint8Array, number: number): Promise<string> {
  const doc = await getDocumentProxy(bytes.slice(), { verbosity: 0 })
  try {
    const page = await doc.getPage(number)
    return itemsToLines((await page.getTextContent()).items).join('\n')
  } finally {
    await doc.loadingTask.destroy()
  }
}
