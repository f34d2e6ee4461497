import { getDocumentProxy } from 'unpdf'
import { indexOfAscii } from './detect.ts'
import { ExtractError } from './errors.ts'
import type { PdfOcrOptions } from './ocr.ts'
import { ocrEmptyPages } from './ocr-pages.ts'
import { dropRunningLines, repairHyphenation } from './pdf-cleanup.ts'
import { PdfFile } from './pdf-file.ts'
import { cellLinesLeft, ruledGrids } from './pdf-grid-reader.ts'
import { positionedLines } from './pdf-lines.ts'
import { linesWithRuledTables } from './pdf-ruled-tables.ts'
import { rebuildTables } from './pdf-tables.ts'
import { joinPages } from './pages.ts'
import type { ExtractedDocument } from './types.ts'

type PdfDocument = Awaited<ReturnType<typeof getDocumentProxy>>

const DAMAGED = 'This PDF is damaged and cannot be read.'

/**
 * Text per page in reading order, with running headers/footers dropped and hyphenation repaired.
 * With `ocr`, pages without a text layer are recognised (and listed in `ocr`).
 */
export async function extractPdf(
  bytes: Uint8Array,
  ocr?: PdfOcrOptions,
): Promise<ExtractedDocument> {
  // Every complete PDF ends with %%EOF; without it the upload was cut short.
  if (indexOfAscii(bytes.subarray(Math.max(0, bytes.length - 2048)), '%%EOF') < 0) {
    throw new ExtractError('corrupt', 'This PDF is truncated (the file is incomplete).')
  }
  const doc = await openPdf(bytes)
  try {
    const rawPages: string[][] = []
    const unreadable: number[] = []
    // The file's own objects, read when a page first needs its drawing (see ruledGrids); one
    // that cannot be read leaves every page to pdf.js.
    let file: Promise<PdfFile | undefined> | undefined
    const drawings = () => (file ??= PdfFile.open(bytes).catch(() => undefined))
    for (let number = 1; number <= doc.numPages; number++) {
      rawPages.push(
        // One damaged page should not cost the others: it stays, empty, and is reported.
        await pageLines(doc, number, drawings).catch(() => {
          unreadable.push(number)
          return []
        }),
      )
    }
    if (unreadable.length === doc.numPages) throw new ExtractError('corrupt', DAMAGED)
    const ocrPages = ocr
      ? await ocrEmptyPages(
          () => openPdf(bytes, { images: true, CanvasFactory: ocr.CanvasFactory }),
          rawPages,
          unreadable,
          ocr,
        )
      : []
    if (rawPages.every((lines) => lines.length === 0)) {
      throw new ExtractError('no_text_layer', 'this PDF has no text layer (scanned?)')
    }
    const { pages, dropped } = dropRunningLines(rawPages)
    const warnings: string[] = []
    if (unreadable.length > 0) {
      warnings.push(
        `${plural(unreadable.length, 'page')} could not be read: ${unreadable.join(', ')}`,
      )
    }
    if (dropped > 0) warnings.push(`dropped ${plural(dropped, 'running header/footer line')}`)
    const empty = pages.filter((lines, i) => lines.length === 0 && !unreadable.includes(i + 1))
    if (empty.length > 0) warnings.push(`${plural(empty.length, 'page')} without text`)
    if (ocrPages.length > 0) warnings.push(`${plural(ocrPages.length, 'page')} read by OCR`)
    const { text, pages: ranges } = joinPages(
      pages.map((lines) => repairHyphenation(lines.join('\n'))),
    )
    const title = await titleOf(doc)
    return {
      text,
      pages: ranges,
      format: 'pdf',
      ...(title ? { title } : {}),
      warnings,
      ...(ocrPages.length > 0 ? { ocr: ocrPages } : {}),
    }
  } catch (error) {
    // A cancelled OCR is not a damaged file.
    if (ocr?.signal?.aborted) throw ocr.signal.reason
    throw asExtractError(error)
  } finally {
    await doc.loadingTask.destroy()
  }
}

async function pageLines(
  doc: PdfDocument,
  number: number,
  drawings: () => Promise<PdfFile | undefined>,
): Promise<string[]> {
  const page = await doc.getPage(number)
  const { items } = await page.getTextContent()
  // Tables become GFM tables in place, each one entry (prose lines stay one entry each): from
  // text positions, or where those leave lines of several cells as prose, from the rules the
  // page draws around cells (see pdf-grid-reader.ts for when).
  const positioned = positionedLines(items)
  let lines = rebuildTables(positioned)
  if (cellLinesLeft(positioned, lines)) {
    const grids = await ruledGrids(page, await drawings())
    if (grids.length > 0) lines = linesWithRuledTables(items, grids)
  }
  page.cleanup()
  return lines
}

/**
 * The document for pdf.js to read. Without `images`, pages are read with their images left out
 * (pdf.js's `maxImageSize: 0`): their text and the rules of their tables need none, and decoding
 * and passing each image along took a tenth of every drawing read (pdf-grid-reader.ts). Pages
 * are only rendered, for OCR, from a document opened with them.
 */
export async function openPdf(
  bytes: Uint8Array,
  { images = false, CanvasFactory }: { images?: boolean; CanvasFactory?: unknown } = {},
): Promise<PdfDocument> {
  try {
    // pdf.js may take ownership of (detach) the buffer it is given: hand it a copy.
    return await getDocumentProxy(bytes.slice(), {
      verbosity: 0,
      ...(images ? {} : { maxImageSize: 0 }),
      ...(CanvasFactory ? { CanvasFactory } : {}),
    })
  } catch (error) {
    throw asExtractError(error)
  }
}

async function titleOf(doc: PdfDocument): Promise<string | undefined> {
  const { info } = await doc.getMetadata().catch(() => ({ info: undefined }))
  const title = (info as { Title?: unknown } | undefined)?.Title
  // Producers often store file names or ids here: keep only titles with words in them.
  return typeof title === 'string' && /\p{L}{2}/u.test(title) ? title.trim() : undefined
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`
}

function asExtractError(error: unknown): ExtractError {
  if (error instanceof ExtractError) return error
  const name = (error as { name?: string } | null)?.name
  if (name === 'PasswordException') {
    return new ExtractError(
      'encrypted',
      'This PDF is password-protected; upload an unlocked copy.',
      {
        cause: error,
      },
    )
  }
  return new ExtractError('corrupt', DAMAGED, { cause: error })
}
