/**
 * The query's embedding for the hybrid (BM25 + vector) ranking, or null for lexical only.
 * No embedding model is configured yet: the chat/AI work plugs one in here, and
 * search_chunks fuses both rankings as soon as this returns a vector.
 */
export function embedQuery(_query: string): Promise<number[] | null> {
  return Promise.resolve(null)
}
