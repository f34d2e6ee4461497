import { getDocumentProxy } from 'unpdf'
import { indexOfAscii } from './detect.ts'
import { ExtractError } from './errors.ts'
import { dropRunningLines, repairHyphenation } from './pdf-cleanup.ts'
import { itemsToLines } from './pdf-lines.ts'
import { joinPages } from './pages.ts'
import type { ExtractedDocument } from './types.ts'

type PdfDocument = Awaited<ReturnType<typeof getDocumentProxy>>

/** Text per page in reading order, with running headers/footers dropped and hyphenation repaired. */
export async function extractPdf(bytes: Uint8Array): Promise<ExtractedDocument> {
  // Every complete PDF ends with %%EOF; without it the upload was cut short.
  if (indexOfAscii(bytes.subarray(Math.max(0, bytes.length - 2048)), '%%EOF') < 0) {
    throw new ExtractError('corrupt', 'This PDF is truncated (the file is incomplete).')
  }
  const doc = await open(bytes)
  try {
    const rawPages: string[][] = []
    for (let number = 1; number <= doc.numPages; number++) {
      const page = await doc.getPage(number)
      rawPages.push(itemsToLines((await page.getTextContent()).items))
      page.cleanup()
    }
    if (rawPages.every((lines) => lines.length === 0)) {
      throw new ExtractError('no_text_layer', 'this PDF has no text layer (scanned?)')
    }
    const { pages, dropped } = dropRunningLines(rawPages)
    const warnings = dropped > 0 ? [`dropped ${dropped} running header/footer lines`] : []
    const emptyPages = pages.filter((lines) => lines.length === 0).length
    if (emptyPages > 0) warnings.push(`${emptyPages} of ${pages.length} pages have no text`)
    const { text, pages: ranges } = joinPages(
      pages.map((lines) => repairHyphenation(lines.join('\n'))),
    )
    return { text, pages: ranges, format: 'pdf', title: await titleOf(doc), warnings }
  } catch (error) {
    throw asExtractError(error)
  } finally {
    await doc.loadingTask.destroy()
  }
}

async function open(bytes: Uint8Array): Promise<PdfDocument> {
  try {
    // pdf.js may take ownership of (detach) the buffer it is given: hand it a copy.
    return await getDocumentProxy(bytes.slice(), { verbosity: 0 })
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
  return new ExtractError('corrupt', 'This PDF is damaged and cannot be read.', { cause: error })
}
