import { chunkDocument } from '../chunk/chunk-document.ts'
import { extractDocument } from '../extract/extract-document.ts'
import type { ExtractInput } from '../extract/types.ts'
import { repairLigatures } from './repair-ligatures.ts'
import type { Processed } from './types.ts'

/** Extraction then chunking in this thread, timed (the default ProcessFile). */
export async function processFile(input: ExtractInput): Promise<Processed> {
  const started = performance.now()
  // The size limit is the pipeline's (checked before upload), so extraction does not repeat it.
  const doc = await extractDocument(input, { maxBytes: Infinity })
  // Some PDFs map ligature glyphs to NUL: spell them out where the document tells how, and
  // since Postgres text cannot hold NUL, mark the rest with the replacement character.
  const repaired = repairLigatures(doc.text, doc.pages)
  doc.text = repaired.text.replaceAll('\0', '\uFFFD')
  doc.pages = repaired.pages
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
