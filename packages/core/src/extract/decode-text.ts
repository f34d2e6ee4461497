import { ExtractError } from './errors.ts'

export interface DecodedText {
  text: string
  encoding: string
}

/**
 * Decodes text bytes: a BOM decides (UTF-8, UTF-16 LE/BE); otherwise strict UTF-8, and if that
 * fails windows-1252 — unless the uploader declared UTF-8 (charset in the MIME type), in which
 * case invalid UTF-8 is an error rather than a silent mis-decoding.
 */
export function decodeText(bytes: Uint8Array, mimeType?: string): DecodedText {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) {
    return { text: strict('utf-8', bytes.subarray(3)), encoding: 'utf-8' }
  }
  if (bytes[0] === 0xff && bytes[1] === 0xfe) {
    return { text: strict('utf-16le', bytes.subarray(2)), encoding: 'utf-16le' }
  }
  if (bytes[0] === 0xfe && bytes[1] === 0xff) {
    return { text: strict('utf-16be', bytes.subarray(2)), encoding: 'utf-16be' }
  }
  const declared = /charset\s*=\s*"?([\w-]+)/i.exec(mimeType ?? '')?.[1]?.toLowerCase()
  try {
    return { text: new TextDecoder('utf-8', { fatal: true }).decode(bytes), encoding: 'utf-8' }
  } catch {
    if (declared === 'utf-8' || declared === 'utf8') {
      throw new ExtractError(
        'invalid_encoding',
        'This file is declared as UTF-8 text but contains bytes that are not valid UTF-8.',
      )
    }
  }
  const text = new TextDecoder('windows-1252').decode(bytes)
  // The five bytes windows-1252 leaves undefined decode to C1 controls: then it is neither.
  if (/[\x81\x8d\x8f\x90\x9d]/.test(text)) {
    throw new ExtractError(
      'invalid_encoding',
      'This text is neither valid UTF-8 nor windows-1252; save it as UTF-8 and upload it again.',
    )
  }
  return { text, encoding: 'windows-1252' }
}

function strict(encoding: string, bytes: Uint8Array): string {
  try {
    return new TextDecoder(encoding, { fatal: true, ignoreBOM: true }).decode(bytes)
  } catch {
    throw new ExtractError(
      'invalid_encoding',
      `This file starts with a ${encoding.toUpperCase()} byte-order mark but is not valid ${encoding.toUpperCase()}.`,
    )
  }
}
