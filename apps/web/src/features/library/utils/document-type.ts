/** The kinds of file the library tells apart, for its Type column and filter. */
export const documentTypes = ['pdf', 'docx', 'markdown', 'html', 'text', 'csv', 'other'] as const
export type DocumentType = (typeof documentTypes)[number]

export const typeLabels: Record<DocumentType, string> = {
  pdf: 'PDF',
  docx: 'Word',
  markdown: 'Markdown',
  html: 'HTML',
  text: 'Text',
  csv: 'CSV',
  other: 'Other',
}

const byMimeType: Record<string, DocumentType> = {
  'application/pdf': 'pdf',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'docx',
  'text/markdown': 'markdown',
  'text/x-markdown': 'markdown',
  'text/html': 'html',
  'application/xhtml+xml': 'html',
  'text/plain': 'text',
  'text/csv': 'csv',
}

const byExtension: Record<string, DocumentType> = {
  pdf: 'pdf',
  docx: 'docx',
  md: 'markdown',
  markdown: 'markdown',
  html: 'html',
  htm: 'html',
  xhtml: 'html',
  txt: 'text',
  text: 'text',
  csv: 'csv',
}

/** By MIME type first, then by the title's extension (titles start as the file name). */
export function documentType(mimeType: string | null, title: string): DocumentType {
  const mime = mimeType?.split(';')[0]?.trim().toLowerCase()
  const extension = /\.([a-z0-9]+)$/i.exec(title)?.[1]?.toLowerCase()
  return (mime && byMimeType[mime]) || (extension && byExtension[extension]) || 'other'
}
