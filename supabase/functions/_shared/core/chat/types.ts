// Generated from packages/core/src/chat/types.ts by `npm run sync:core`: edit that file, not this one.
import type { DocumentFormat } from '../extract/document-type.ts'

/** A retrieved passage, numbered n = 1..k in the order it is shown to the model. */
export type Source = {
  n: number
  chunk_id: string
  document_id: string
  title: string
  /**
   * The document's format (typeOfDocument), so a place reads as pages, slides or neither
   * without reading the document; absent in citations stored before it was added.
   */
  document_type?: DocumentFormat | 'other'
  page_start: number | null
  page_end: number | null
  /** The chunk's place in document_texts.text; null for chunks written without one. */
  char_start: number | null
  char_end: number | null
  content: string
  /**
   * The passage's heading path (chunks.heading_path): for a passage starting inside a long
   * table, its last entries are the table's title and header row. Not kept in citations.
   */
  heading_path?: string[]
}

/**
 * What an answer cites (messages.citations[]): the source's identity, and the quoted
 * passage sentences with their place in the document. `supported` is the citation check's
 * verdict: null when it could not tell (the citing sentence has no content words).
 */
export type Citation = Omit<Source, 'content' | 'heading_path'> & {
  quote: string
  supported: boolean | null
}

export type Turn = { role: 'user' | 'assistant'; content: string }
