// Generated from packages/core/src/extract/document-type.ts by `npm run sync:core`: edit that file, not this one.
/**
 * The formats Sourcebook reads, and how a name or MIME type claims one: apart from detect.ts
 * (which reads bytes), so the Edge Functions label documents without loading the extractors.
 */
export type DocumentFormat = 'pdf' | 'docx' | 'pptx' | 'xlsx' | 'markdown' | 'html' | 'text' | 'csv'

const byExtension: Record<string, DocumentFormat> = {
  pdf: 'pdf',
  docx: 'docx',
  pptx: 'pptx',
  xlsx: 'xlsx',
  xlsm: 'xlsx',
  md: 'markdown',
  markdown: 'markdown',
  html: 'html',
  htm: 'html',
  xhtml: 'html',
  txt: 'text',
  text: 'text',
  csv: 'csv',
}

const byMimeType: Record<string, DocumentFormat> = {
  'application/pdf': 'pdf',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'docx',
  'application/vnd.openxmlformats-officedocument.presentationml.presentation': 'pptx',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': 'xlsx',
  'application/vnd.ms-excel.sheet.macroenabled.12': 'xlsx',
  'text/markdown': 'markdown',
  'text/x-markdown': 'markdown',
  'text/html': 'html',
  'application/xhtml+xml': 'html',
  'text/plain': 'text',
  'text/csv': 'csv',
}

// Own keys only: "x.constructor" names no format.
const lookup = (table: Record<string, DocumentFormat>, key: string) =>
  Object.hasOwn(table, key) ? table[key] : undefined

export const extensionOf = (name: string) => /\.([a-z0-9]+)$/i.exec(name)?.[1]?.toLowerCase() ?? ''

/** The format a file name's extension claims, if it names one we read. */
export const formatOfName = (name: string): DocumentFormat | undefined =>
  lookup(byExtension, extensionOf(name))

/** The format a MIME type claims (parameters such as charset ignored), if we read it. */
export const formatOfMimeType = (mimeType: string): DocumentFormat | undefined =>
  lookup(byMimeType, mimeType.split(';')[0]?.trim().toLowerCase() ?? '')

/**
 * A stored document's format, or 'other': by its MIME type first, then the extension of its
 * stored file's name, then of its title (titles start as the file name but may have been
 * renamed without one).
 */
export const typeOfDocument = (doc: {
  mime_type: string | null
  storage_path?: string | null
  title: string
}): DocumentFormat | 'other' =>
  formatOfMimeType(doc.mime_type ?? '') ??
  formatOfName(doc.storage_path ?? '') ??
  formatOfName(doc.title) ??
  'other'
