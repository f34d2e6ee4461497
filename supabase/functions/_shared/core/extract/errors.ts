// Generated from packages/core/src/extract/errors.ts by `npm run sync:core`: edit that file, not this one.
/** Why a file could not be extracted; stable codes the pipeline stores and the UI can translate. */
export type ExtractErrorCode =
  | 'unsupported_type'
  | 'type_mismatch'
  | 'empty_file'
  | 'no_text_layer'
  | 'encrypted'
  | 'corrupt'
  | 'too_large'
  | 'zip_bomb'
  | 'invalid_encoding'
  | 'ocr_failed'

/** An extraction failure with a message meant for the person who uploaded the file. */
export class ExtractError extends Error {
  override readonly name = 'ExtractError'
  readonly code: ExtractErrorCode

  constructor(code: ExtractErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options)
    this.code = code
  }
}
