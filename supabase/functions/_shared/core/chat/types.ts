// Generated from packages/core/src/chat/types.ts by `npm run sync:core`: edit that file, not this one.
/** A retrieved passage, numbered n = 1..k in the order it is shown to the model. */
export type Source = {
  n: number
  chunk_id: string
  document_id: string
  title: string
  page_start: number | null
  page_end: number | null
  /** The chunk's place in document_texts.text; null for chunks written without one. */
  char_start: number | null
  char_end: number | null
  content: string
}

/**
 * What an answer cites (messages.citations[]): the source's identity, and the quoted
 * passage sentences with their place in the document. `supported` is the citation check's
 * verdict: null when it could not tell (the citing sentence has no content words).
 */
export type Citation = Omit<Source, 'content'> & { quote: string; supported: boolean | null }

export type Turn = { role: 'user' | 'assistant'; content: string }
