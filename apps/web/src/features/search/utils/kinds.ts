/** The document kinds search filters by, as search_chunks' document_kind names them. */
export const DOCUMENT_KINDS = {
  pdf: 'PDF',
  docx: 'Word',
  pptx: 'PowerPoint',
  xlsx: 'Excel',
  html: 'HTML',
  md: 'Markdown',
  txt: 'Text',
  csv: 'CSV',
} as const

export type DocumentKind = keyof typeof DOCUMENT_KINDS

const kindOfMime: Record<string, DocumentKind> = {
  'application/pdf': 'pdf',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'docx',
  'application/vnd.openxmlformats-officedocument.presentationml.presentation': 'pptx',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': 'xlsx',
  'application/vnd.ms-excel.sheet.macroenabled.12': 'xlsx',
  'text/html': 'html',
  'application/xhtml+xml': 'html',
  'text/markdown': 'md',
  'text/plain': 'txt',
  'text/csv': 'csv',
}

/** A stored MIME type's kind ("text/markdown; charset=utf-8" is md), or null. */
export function documentKind(mimeType: string | null): DocumentKind | null {
  if (!mimeType) return null
  return kindOfMime[mimeType.split(';')[0]!.trim().toLowerCase()] ?? null
}

/** The kinds among the documents, in the order of DOCUMENT_KINDS. */
export function kindsPresent(mimeTypes: (string | null)[]): DocumentKind[] {
  const present = new Set(mimeTypes.map(documentKind))
  return (Object.keys(DOCUMENT_KINDS) as DocumentKind[]).filter((kind) => present.has(kind))
}
