// Generated from packages/core/src/extract/extract-document.ts by `npm run sync:core`: edit that file, not this one.
import { csvToText } from './csv.ts'
import { declaredCharset, decodeText } from './decode-text.ts'
import { detectFormat } from './detect.ts'
import { docxToMarkdown } from './docx.ts'
import { ExtractError } from './errors.ts'
import { htmlToDocument } from './html.ts'
import { joinPages, onePage } from './pages.ts'
import { extractPdf } from './pdf.ts'
import { pptxToSlides } from './pptx.ts'
import { xlsxToMarkdown } from './xlsx.ts'
import type { DocumentFormat, ExtractedDocument, ExtractInput, ExtractOptions } from './types.ts'

const MB = 2 ** 20

/**
 * Extracts a document's text (Markdown for structured formats) and its page map. Throws an
 * ExtractError with a `code` and a message for people when the file cannot be read.
 */
export async function extractDocument(
  { bytes, fileName, mimeType }: ExtractInput,
  { maxBytes = 100 * MB, maxUnzippedBytes = 128 * MB, ocr }: ExtractOptions = {},
): Promise<ExtractedDocument> {
  if (bytes.length === 0) throw new ExtractError('empty_file', `"${fileName}" is empty.`)
  if (bytes.length > maxBytes) {
    throw new ExtractError(
      'too_large',
      `"${fileName}" is larger than ${Math.round(maxBytes / MB)} MB.`,
    )
  }
  const format = detectFormat(bytes, fileName, mimeType)
  if (format === 'pdf') return extractPdf(bytes, ocr)
  if (format === 'docx') {
    const { markdown, warnings } = await docxToMarkdown(bytes, maxUnzippedBytes)
    return finish(markdown, format, firstHeading(markdown), warnings, fileName)
  }
  if (format === 'pptx') {
    const { slides, title } = await pptxToSlides(bytes, maxUnzippedBytes)
    const { text, pages } = joinPages(slides)
    return { ...finish(text, format, title, [], fileName), pages }
  }
  if (format === 'xlsx') {
    return finish(await xlsxToMarkdown(bytes, maxUnzippedBytes), format, undefined, [], fileName)
  }
  const { text, encoding } = decodeText(bytes, declaredCharset(bytes, mimeType))
  const warnings = encoding === 'windows-1252' ? ['not UTF-8: decoded as windows-1252'] : []
  if (format === 'html') {
    const { markdown, title } = await htmlToDocument(text)
    return finish(markdown, format, title ?? firstHeading(markdown), warnings, fileName)
  }
  if (format === 'csv') {
    const csv = csvToText(text)
    return finish(csv.text, format, undefined, [...warnings, ...csv.warnings], fileName)
  }
  const normalized = text.replace(/\r\n?/g, '\n')
  const title = format === 'markdown' ? firstHeading(normalized) : undefined
  return finish(normalized, format, title, warnings, fileName)
}

function finish(
  text: string,
  format: DocumentFormat,
  title: string | undefined,
  warnings: string[],
  fileName: string,
): ExtractedDocument {
  if (text.trim() === '') throw new ExtractError('empty_file', `"${fileName}" contains no text.`)
  return { text, pages: onePage(text), format, ...(title ? { title } : {}), warnings }
}

function firstHeading(markdown: string): string | undefined {
  return /^#{1,6}[ \t]+(.+?)[ \t#]*$/m.exec(markdown)?.[1]
}
