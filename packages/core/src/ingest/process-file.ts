import { chunkDocument } from '../chunk/chunk-document.ts'
import { extractDocument } from '../extract/extract-document.ts'
import type { ExtractInput } from '../extract/types.ts'
import type { Processed } from './types.ts'

/** Extraction then chunking in this thread, timed (the default ProcessFile). */
export async function processFile(input: ExtractInput): Promise<Processed> {
  const started = performance.now()
  // The size limit is the pipeline's (checked before upload), so extraction does not repeat it.
  const doc = await extractDocument(input, { maxBytes: Infinity })
  // Postgres text cannot hold NUL (some PDFs map glyphs to it): the replacement character
  // keeps every offset, so chunks still slice the stored text exactly.
  doc.text = doc.text.replaceAll('\0', '\uFFFD')
  const extracted = performance.now()
  const chunks = chunkDocument(doc)
  return {
    text: doc.text,
    pageCount: doc.pages.length,
    chunks,
    extractMs: extracted - started,
    chunkMs: performance.now() - extracted,
  }
}
