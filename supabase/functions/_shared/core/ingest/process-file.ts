// Generated from packages/core/src/ingest/process-file.ts by `npm run sync:core`: edit that file, not this one.
import { chunkDocument } from '../chunk/chunk-document.ts'
import { extractDocument } from '../extract/extract-document.ts'
import type { PdfOcrOptions } from '../extract/ocr.ts'
import type { ExtractedDocument, ExtractInput } from '../extract/types.ts'
import { repairLigatures } from './repair-ligatures.ts'
import { storableText } from './storable-text.ts'
import type { Processed, ProcessHooks } from './types.ts'

/**
 * Extraction then chunking in this thread, timed (the default ProcessFile). With `ocr` (this
 * environment's engine and canvases), PDF pages without text are recognised; without, a scan is refused.
 */
export async function processFile(
  input: ExtractInput,
  { signal, onOcrPage }: ProcessHooks = {},
  ocr?: Pick<PdfOcrOptions, 'engine' | 'CanvasFactory'>,
): Promise<Processed> {
  const started = performance.now()
  // The size limit is the pipeline's (checked before upload), so extraction does not repeat it.
  const doc = readableText(
    await extractDocument(input, {
      maxBytes: Infinity,
      ...(ocr ? { ocr: { ...ocr, onPage: onOcrPage, signal } } : {}),
    }),
  )
  const extracted = performance.now()
  const chunks = chunkDocument(doc)
  return {
    text: doc.text,
    pageCount: doc.pages.length,
    chunks,
    extractMs: extracted - started,
    chunkMs: performance.now() - extracted,
    ...(doc.ocr ? { ocr: doc.ocr } : {}),
  }
}

/**
 * The text as it is stored. Some PDFs map ligature glyphs to nothing: spell them out where the
 * document tells how. Then the one place every extractor's text passes: what Postgres cannot
 * store (the NULs left, lone surrogates) becomes U+FFFD.
 */
export function readableText(doc: ExtractedDocument): ExtractedDocument {
  const repaired = repairLigatures(doc.text, doc.pages)
  return { ...doc, text: storableText(repaired.text), pages: repaired.pages }
}
