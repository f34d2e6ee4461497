// Generated from packages/core/src/extract/decode-text.ts by `npm run sync:core`: edit that file, not this one.
import { ExtractError } from './errors.ts'

export interface DecodedText {
  text: string
  encoding: string
}

/**
 * Decodes text bytes: a BOM decides (UTF-8, UTF-16 LE/BE); otherwise strict UTF-8 (bytes that
 * are valid UTF-8 almost never are anything else). If that fails: the declared charset (from
 * the MIME type or an HTML meta tag) when there is one, an error if that was UTF-8, else
 * windows-1252.
 */
export function decodeText(bytes: Uint8Array, declaredCharset?: string): DecodedText {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) {
    return { text: strict('utf-8', bytes.subarray(3)), encoding: 'utf-8' }
  }
  if (bytes[0] === 0xff && bytes[1] === 0xfe) {
    return { text: strict('utf-16le', bytes.subarray(2)), encoding: 'utf-16le' }
  }
  if (bytes[0] === 0xfe && bytes[1] === 0xff) {
    return { text: strict('utf-16be', bytes.subarray(2)), encoding: 'utf-16be' }
  }
  try {
    return { text: new TextDecoder('utf-8', { fatal: true }).decode(bytes), encoding: 'utf-8' }
  } catch {
    // Not UTF-8: fall through to the declaration, then the Western-European default.
  }
  const declared = legacyDecoder(declaredCharset)
  if (declared === 'utf-8') {
    throw new ExtractError(
      'invalid_encoding',
      'This file is declared as UTF-8 text but contains bytes that are not valid UTF-8.',
    )
  }
  if (declared && declared !== 'windows-1252') {
    return { text: declared.decode(bytes), encoding: declared.encoding }
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

/** The decoder for a declared charset label ('utf-8' kept as a marker), if the label is known. */
function legacyDecoder(
  label: string | undefined,
): TextDecoder | 'utf-8' | 'windows-1252' | undefined {
  if (!label) return undefined
  try {
    const decoder = new TextDecoder(label)
    return decoder.encoding === 'utf-8' || decoder.encoding === 'windows-1252'
      ? decoder.encoding
      : decoder
  } catch {
    return undefined
  }
}

/** The charset a MIME type (`text/plain; charset=…`) or an HTML meta tag declares. */
export function declaredCharset(
  bytes: Uint8Array,
  mimeType: string | undefined,
): string | undefined {
  const fromMime = /charset\s*=\s*["']?([\w-]+)/i.exec(mimeType ?? '')?.[1]
  if (fromMime) return fromMime
  const head = new TextDecoder('windows-1252').decode(bytes.subarray(0, 2048))
  return /<meta[^>]+charset\s*=\s*["']?([\w-]+)/i.exec(head)?.[1]
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
