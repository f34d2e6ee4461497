// Generated from packages/core/src/ingest/file-types.ts by `npm run sync:core`: edit that file, not this one.
import { detectFormat } from '../extract/detect.ts'
import { ExtractError } from '../extract/errors.ts'

/** The file types Sourcebook reads, by extension, with the MIME type stored for each. */
const SUPPORTED_TYPES: Readonly<Record<string, string>> = {
  pdf: 'application/pdf',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  xlsm: 'application/vnd.ms-excel.sheet.macroEnabled.12',
  md: 'text/markdown',
  markdown: 'text/markdown',
  html: 'text/html',
  htm: 'text/html',
  xhtml: 'application/xhtml+xml',
  txt: 'text/plain',
  text: 'text/plain',
  csv: 'text/csv',
}

/** The MIME type stored for a supported extension ("pdf"), or undefined. */
export function supportedMimeType(extension: string): string | undefined {
  return Object.hasOwn(SUPPORTED_TYPES, extension) ? SUPPORTED_TYPES[extension] : undefined
}

const SUPPORTED_NAMES =
  'PDF, Word (.docx), PowerPoint (.pptx), Excel (.xlsx, .xlsm), Markdown, HTML, plain text and CSV files'
const MB = 2 ** 20

/** A file's extension, lower case; "v1.2" and "Dr. Smith" have none. */
export function fileExtension(fileName: string): string | undefined {
  return /\.([a-z0-9]*[a-z][a-z0-9]*)$/i.exec(fileName)?.[1]?.toLowerCase()
}

/**
 * Why a file is refused before anything is written, or undefined when it may go ahead: too
 * large, empty, an unsupported type, or content that contradicts its name (checked from the
 * first bytes, so a PNG named .pdf never reaches Storage). Damaged contents of a supported
 * type are found later, by extraction.
 */
export function fileRefusal(
  bytes: Uint8Array,
  fileName: string,
  mimeType: string | undefined,
  maxBytes: number,
): string | undefined {
  const refused = nameRefusal(fileName, bytes.length, maxBytes)
  if (refused) return refused
  try {
    detectFormat(bytes, fileName, mimeType)
  } catch (error) {
    if (error instanceof ExtractError) return error.message
    throw error
  }
  return undefined
}

/**
 * The refusals that need only a file's name and size (too large, empty, an unsupported
 * extension): what a page can tell at drop time, before reading a byte.
 */
export function nameRefusal(fileName: string, size: number, maxBytes: number): string | undefined {
  if (size > maxBytes) return `"${fileName}" is larger than ${formatLimit(maxBytes)}.`
  if (size === 0) return `"${fileName}" is empty.`
  const extension = fileExtension(fileName)
  if (extension !== undefined && !supportedMimeType(extension)) {
    return `"${fileName}": .${extension} files are not supported. Sourcebook reads ${SUPPORTED_NAMES}.`
  }
  return undefined
}

function formatLimit(bytes: number): string {
  return bytes >= MB ? `${Math.round(bytes / MB)} MB` : `${Math.ceil(bytes / 1024)} KB`
}
