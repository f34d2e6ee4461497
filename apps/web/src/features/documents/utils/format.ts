export type DocumentFormat = 'pdf' | 'docx' | 'markdown' | 'html' | 'text' | 'csv'

const byMimeType: Record<string, DocumentFormat> = {
  'application/pdf': 'pdf',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'docx',
  'text/markdown': 'markdown',
  'text/x-markdown': 'markdown',
  'text/html': 'html',
  'application/xhtml+xml': 'html',
  'text/plain': 'text',
  'text/csv': 'csv',
}

const byExtension: Record<string, DocumentFormat> = {
  pdf: 'pdf',
  docx: 'docx',
  md: 'markdown',
  markdown: 'markdown',
  html: 'html',
  htm: 'html',
  xhtml: 'html',
  txt: 'text',
  csv: 'csv',
}

const labels: Record<DocumentFormat, string> = {
  pdf: 'PDF',
  docx: 'Word',
  markdown: 'Markdown',
  html: 'HTML',
  text: 'Text',
  csv: 'CSV',
}

const extensionOf = (name: string | null) => /\.([a-z0-9]+)$/i.exec(name ?? '')?.[1]?.toLowerCase()

/**
 * What the original is: its MIME type, else the extension of its stored file name (the
 * title may have been renamed without one), else plain text.
 */
export function documentFormat(doc: {
  mime_type: string | null
  storage_path: string | null
  title: string
}): DocumentFormat {
  const mime = doc.mime_type?.split(';')[0]?.trim().toLowerCase() ?? ''
  return (
    byMimeType[mime] ??
    byExtension[extensionOf(doc.storage_path) ?? ''] ??
    byExtension[extensionOf(doc.title) ?? ''] ??
    'text'
  )
}

export const formatLabel = (format: DocumentFormat) => labels[format]

/** Extracted text of these formats is Markdown (headings, lists, tables). */
export const isMarkdown = (format: DocumentFormat) =>
  format === 'docx' || format === 'html' || format === 'markdown'

export function formatBytes(bytes: number | null): string | null {
  if (bytes === null) return null
  if (bytes < 1024) return `${bytes} B`
  const units = ['KB', 'MB', 'GB']
  let value = bytes / 1024
  let unit = 0
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024
    unit += 1
  }
  return `${value.toFixed(value < 10 ? 1 : 0)} ${units[unit]}`
}

export function pageRange(start: number | null, end: number | null): string | null {
  if (start === null) return null
  return end !== null && end !== start ? `pages ${start}–${end}` : `page ${start}`
}
