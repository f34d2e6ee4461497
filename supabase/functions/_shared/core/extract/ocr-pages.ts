// Generated from packages/core/src/extract/ocr-pages.ts by `npm run sync:core`: edit that file, not this one.
import { type getDocumentProxy, getResolvedPDFJS } from 'unpdf'
import { ExtractError } from './errors.ts'
import { recognisePage } from './ocr.ts'
import type { OcrEngine, OcrPage, PdfOcrOptions } from './ocr.ts'

type PdfDocument = Awaited<ReturnType<typeof getDocumentProxy>>
type PdfPage = Awaited<ReturnType<PdfDocument['getPage']>>

/** Outlined text (glyphs drawn as paths) takes hundreds of paths; a ruled blank page a few. */
const PATHS_WORTH_READING = 50

/**
 * Recognises the pages that have no text (a scan, or a scanned page in a born-digital PDF),
 * one at a time, and fills in their lines; pages with text are never rendered. `skip` are
 * pages pdf.js could not read at all. The document these pages are read from is opened (by
 * `openDocument`, with its images: they are what a scan holds) only when there are some, and
 * destroyed after. Throws the signal's reason when cancelled.
 */
export async function ocrEmptyPages(
  openDocument: () => Promise<PdfDocument>,
  pages: string[][],
  skip: number[],
  options: PdfOcrOptions,
): Promise<OcrPage[]> {
  const empty = [...pages.keys()].filter((i) => pages[i]!.length === 0 && !skip.includes(i + 1))
  if (empty.length === 0) return []
  const doc = await openDocument()
  try {
    return await recogniseEmptyPages(doc, pages, empty, options)
  } finally {
    await doc.loadingTask.destroy()
  }
}

async function recogniseEmptyPages(
  doc: PdfDocument,
  pages: string[][],
  empty: number[],
  { engine: makeEngine, onPage, signal }: PdfOcrOptions,
): Promise<OcrPage[]> {
  const numbers: number[] = []
  for (const i of empty) {
    if (await worthReading(await doc.getPage(i + 1))) numbers.push(i + 1)
  }
  if (numbers.length === 0) return []
  signal?.throwIfAborted()
  const engine: OcrEngine = await makeEngine().catch((cause: unknown) => {
    throw new ExtractError('ocr_failed', 'OCR could not start for this scanned PDF.', { cause })
  })
  // Cancel stops the page being recognised too (a page takes seconds), not only the next one:
  // the Tesseract worker is ended, and the page's recognition, which then never settles, is
  // raced against the abort.
  let stop = () => {}
  const cancelled = new Promise<never>((_, reject) => {
    stop = () => {
      reject(signal?.reason)
      void engine.close().catch(() => {})
    }
  })
  cancelled.catch(() => {})
  signal?.addEventListener('abort', stop, { once: true })
  try {
    const done: OcrPage[] = []
    for (const [i, number] of numbers.entries()) {
      signal?.throwIfAborted()
      onPage?.(i + 1, numbers.length)
      const page = await doc.getPage(number)
      const reading = recognisePage(page, engine, signal).catch((cause: unknown) => {
        if (signal?.aborted) throw signal.reason
        throw new ExtractError('ocr_failed', `Page ${number} could not be read by OCR.`, { cause })
      })
      const lines = await Promise.race([reading, cancelled])
      page.cleanup()
      pages[number - 1] = lines.map((line) => line.text)
      if (lines.length > 0) done.push({ number, lines })
    }
    signal?.throwIfAborted()
    return done
  } finally {
    signal?.removeEventListener('abort', stop)
    if (!signal?.aborted) await engine.close()
  }
}

/**
 * Whether a page without text may hold some to recognise: it paints a picture, or many paths
 * (text converted to outlines). Blank and ruled pages, common in born-digital filings, are not
 * worth seconds of OCR each.
 */
async function worthReading(page: PdfPage): Promise<boolean> {
  const { OPS } = await getResolvedPDFJS()
  const images = new Set<number>([
    OPS.paintImageXObject,
    OPS.paintInlineImageXObject,
    OPS.paintInlineImageXObjectGroup,
    OPS.paintImageXObjectRepeat,
    OPS.paintImageMaskXObject,
    OPS.paintImageMaskXObjectGroup,
    OPS.paintImageMaskXObjectRepeat,
    OPS.paintSolidColorImageMask,
  ])
  const { fnArray } = await page.getOperatorList()
  let paths = 0
  for (const fn of fnArray) {
    if (images.has(fn)) return true
    if (fn === OPS.constructPath && ++paths >= PATHS_WORTH_READING) return true
  }
  return false
}
