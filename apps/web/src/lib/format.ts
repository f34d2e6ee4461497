import { typeOfDocument } from '@sourcebook/core/extract/document-type'

/** The kinds of file Sourcebook tells apart: the library's Type column and filter, the viewer. */
export const documentTypes = [
  'pdf',
  'docx',
  'pptx',
  'xlsx',
  'markdown',
  'html',
  'text',
  'csv',
  'other',
] as const
export type DocumentType = (typeof documentTypes)[number]

export const typeLabels: Record<DocumentType, string> = {
  pdf: 'PDF',
  docx: 'Word',
  pptx: 'PowerPoint',
  xlsx: 'Excel',
  markdown: 'Markdown',
  html: 'HTML',
  text: 'Text',
  csv: 'CSV',
  other: 'Other',
}

/** A document's type: the rule search results and citations are labelled by (in core). */
export const documentType: (doc: Parameters<typeof typeOfDocument>[0]) => DocumentType =
  typeOfDocument

/** Extracted text of these types is Markdown (headings, lists, tables). */
export const isMarkdown = (type: DocumentType) =>
  type === 'docx' || type === 'pptx' || type === 'xlsx' || type === 'html' || type === 'markdown'

const units = ['B', 'KB', 'MB', 'GB']

/** 1,536 → "1.5 KB": binary units, one decimal under ten. */
export function formatBytes(bytes: number): string {
  let value = bytes
  let unit = 0
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024
    unit += 1
  }
  const digits = unit === 0 || value >= 10 ? 0 : 1
  return `${value.toFixed(digits)} ${units[unit]}`
}

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' })
const dateTimeFormat = new Intl.DateTimeFormat(undefined, {
  dateStyle: 'medium',
  timeStyle: 'short',
})

/** An ISO timestamp as a date in the reader's locale ("22 Nov 2026"). */
export const formatDate = (iso: string) => dateFormat.format(new Date(iso))
/** An ISO timestamp as a date and time in the reader's locale ("22 Nov 2026, 04:22"). */
export const formatDateTime = (iso: string) => dateTimeFormat.format(new Date(iso))

/**
 * Where a passage is, short, by what its page numbers count: "p. 3" or "pp. 3–5" (also while
 * the type is unknown); "slide 3" or "slides 3–5" in a presentation; nothing in a workbook
 * (its one page is not a sheet), nor without a page.
 */
export function placeLabel(
  type: DocumentType | undefined,
  start: number | null | undefined,
  end: number | null | undefined,
): string | null {
  if (start == null || type === 'xlsx') return null
  const range = end != null && end !== start
  if (type === 'pptx') return range ? `slides ${start}–${end}` : `slide ${start}`
  return range ? `pp. ${start}–${end}` : `p. ${start}`
}

/** "page 3" or "pages 3–5", or null when there is no page. */
export function pageRange(start: number | null, end: number | null): string | null {
  if (start === null) return null
  return end !== null && end !== start ? `pages ${start}–${end}` : `page ${start}`
}
