import type { OcrPage, PdfOcrOptions } from './ocr.ts'

import type { DocumentFormat } from './document-type.ts'

export type { DocumentFormat }

/** Characters [start, end) of the extracted text that came from page `number` (1-based). */
export interface PageRange {
  number: number
  start: number
  end: number
}

export interface ExtractInput {
  bytes: Uint8Array
  fileName: string
  mimeType?: string
}

export interface ExtractOptions {
  /** Largest input accepted, in bytes (default 100 MB, the product's per-file limit). */
  maxBytes?: number
  /** Largest total a DOCX, PPTX or XLSX may inflate to, in bytes (default 128 MB: a 100 MB upload of images inflates to little more, while 200 MB of zeros deflates to 200 KB). */
  maxUnzippedBytes?: number
  /** Reads PDF pages without a text layer by OCR; without it such a PDF is refused. */
  ocr?: PdfOcrOptions
}

export interface ExtractedDocument {
  /** The document's text; Markdown for structured formats (headings as `#` lines, GFM tables). */
  text: string
  /** Ascending, non-overlapping; one page covering all of `text` for non-paginated formats. */
  pages: PageRange[]
  format: DocumentFormat
  title?: string
  /** Things a person may want to know (e.g. "decoded as windows-1252"), never fatal. */
  warnings: string[]
  /** The PDF pages read by OCR, with the line boxes the viewer highlights on. */
  ocr?: OcrPage[]
}
