// Generated from packages/core/src/chat/test-sources.ts by `npm run sync:core`: edit that file, not this one.
import type { Source } from './types.ts'

/** A numbered source for tests, its chunk at `charStart` in the document. */
export function source(n: number, content: string, charStart: number | null = 100): Source {
  return {
    n,
    chunk_id: `chunk-${n}`,
    document_id: `doc-${n}`,
    title: `Document ${n}`,
    page_start: n,
    page_end: n + 1,
    char_start: charStart,
    char_end: charStart === null ? null : charStart + content.length,
    content,
  }
}
