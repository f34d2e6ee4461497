// Generated from packages/core/src/extract/detect.ts by `npm run sync:core`: edit that file, not this one.
import { ExtractError } from './errors.ts'
import { extensionOf, formatOfMimeType, formatOfName } from './document-type.ts'
import type { DocumentFormat } from './types.ts'
import { readCentralDirectory } from './zip-guard.ts'

/** Signatures of binary formats we recognise but do not read, to name them in the error. */
const knownBinaries: [number[], string][] = [
  [[0x89, 0x50, 0x4e, 0x47], 'a PNG image'],
  [[0xff, 0xd8, 0xff], 'a JPEG image'],
  [[0x47, 0x49, 0x46, 0x38], 'a GIF image'],
  [[0xd0, 0xcf, 0x11, 0xe0], 'a legacy Office file (.doc/.xls/.ppt)'],
  [[0x1f, 0x8b], 'a gzip archive'],
  [[0x52, 0x61, 0x72, 0x21], 'a RAR archive'],
  [[0x37, 0x7a, 0xbc, 0xaf], 'a 7-Zip archive'],
]

const names: Record<DocumentFormat, string> = {
  pdf: 'a PDF',
  docx: 'a Word document',
  pptx: 'a PowerPoint file',
  xlsx: 'an Excel workbook',
  markdown: 'Markdown',
  html: 'HTML',
  text: 'text',
  csv: 'CSV',
}

const ZIPPED = new Set<DocumentFormat>(['docx', 'pptx', 'xlsx'])

/** The Office format whose main part a ZIP holds, from its central directory (read, not inflated). */
function officeFormat(bytes: Uint8Array): DocumentFormat | undefined {
  let parts: string[]
  try {
    parts = readCentralDirectory(bytes).map((entry) => entry.name)
  } catch {
    return undefined
  }
  if (parts.includes('word/document.xml')) return 'docx'
  if (parts.includes('ppt/presentation.xml')) return 'pptx'
  if (parts.includes('xl/workbook.xml')) return 'xlsx'
  return undefined
}

type Sniffed = 'pdf' | 'zip' | 'text' | { binary: string }

/** Decides the format from the bytes first, then the name and MIME type; refuses contradictions. */
export function detectFormat(
  bytes: Uint8Array,
  fileName: string,
  mimeType?: string,
): DocumentFormat {
  const extension = extensionOf(fileName)
  const claimed = formatOfName(fileName) ?? formatOfMimeType(mimeType ?? '')
  const sniffed = sniff(bytes)
  const mismatch = (actual: string) =>
    new ExtractError(
      'type_mismatch',
      `"${fileName}" is named as ${names[claimed!]} but its content is ${actual}.`,
    )

  if (sniffed === 'pdf') {
    if (claimed !== undefined && claimed !== 'pdf') throw mismatch('a PDF')
    return 'pdf'
  }
  if (sniffed === 'zip') {
    if (extension === 'odt' || extension === 'ods' || extension === 'odp') {
      throw new ExtractError('unsupported_type', `.${extension} files are not supported yet.`)
    }
    const format = officeFormat(bytes)
    if (format === undefined) {
      // Not an Office package we recognise (or a damaged one): extraction names what is wrong.
      if (claimed !== undefined && !ZIPPED.has(claimed)) throw mismatch('a ZIP archive')
      return claimed ?? 'docx'
    }
    if (claimed !== undefined && claimed !== format) throw mismatch(names[format])
    return format
  }
  if (sniffed !== 'text') {
    if (claimed !== undefined) throw mismatch(sniffed.binary)
    throw new ExtractError(
      'unsupported_type',
      `"${fileName}" is ${sniffed.binary}, which Sourcebook cannot read.`,
    )
  }
  if (claimed === 'pdf' || ZIPPED.has(claimed!)) throw mismatch('plain text')
  return claimed ?? 'text'
}

function sniff(bytes: Uint8Array): Sniffed {
  const head = bytes.subarray(0, 1024)
  if (indexOfAscii(head, '%PDF-') >= 0) return 'pdf'
  if (startsWith(bytes, [0x50, 0x4b, 0x03, 0x04]) || startsWith(bytes, [0x50, 0x4b, 0x05, 0x06])) {
    return 'zip'
  }
  for (const [signature, what] of knownBinaries) {
    if (startsWith(bytes, signature)) return { binary: what }
  }
  return looksLikeText(bytes.subarray(0, 8192)) ? 'text' : { binary: 'binary data, not text' }
}

/** Text has a UTF-16 BOM, or no NUL bytes and almost no other control characters. */
function looksLikeText(sample: Uint8Array): boolean {
  if (startsWith(sample, [0xff, 0xfe]) || startsWith(sample, [0xfe, 0xff])) return true
  let control = 0
  for (const byte of sample) {
    if (byte === 0) return false
    if (
      (byte < 0x20 && byte !== 0x09 && byte !== 0x0a && byte !== 0x0d && byte !== 0x0c) ||
      byte === 0x7f
    ) {
      control++
    }
  }
  return control <= sample.length * 0.01
}

function startsWith(bytes: Uint8Array, prefix: number[]): boolean {
  return prefix.every((byte, i) => bytes[i] === byte)
}

export function indexOfAscii(bytes: Uint8Array, needle: string, from = 0): number {
  outer: for (let i = from; i <= bytes.length - needle.length; i++) {
    for (let j = 0; j < needle.length; j++) {
      if (bytes[i + j] !== needle.charCodeAt(j)) continue outer
    }
    return i
  }
  return -1
}
