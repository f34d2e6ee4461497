/**
 * The workspace columns to write when an owner picks embedding model `next`. With vectors
 * already serving search, a different model is built alongside (pending) and swapped in when
 * complete, so search never goes without; otherwise it simply becomes the active model.
 */
export function embeddingChange(active: string | null, next: string | null) {
  if (next === active) return { pending_embedding_model: null }
  if (active === null || next === null) {
    return { embedding_model: next, pending_embedding_model: null }
  }
  return { pending_embedding_model: next }
}
