/** How far a workspace's vectors have come (the embedding_progress function). */
export type EmbeddingCounts = {
  chunks: number
  /** Chunks search reads a vector of the active model for, wherever it is stored. */
  searchable: number
  /** Of those, the ones a promotion has yet to move into place (upkeep still to do). */
  moving: number
  /** Chunks with a vector of the pending model, while one is being built. */
  pending: number
}

type Models = { embeddingModel: string | null; pendingEmbeddingModel: string | null }

/**
 * What the workspace's vectors are doing, as Settings tells it. `embedding`: the active model
 * lacks vectors for some chunks, which search finds by keywords alone. `moving`: every chunk
 * has one search reads, and some still wait to be moved into place. `rebuilding`: another
 * model is being built while the active one's vectors (`searchable` of them) serve search.
 * `done`: nothing left for the embed function to do.
 */
export type EmbeddingState =
  | { kind: 'done' }
  | { kind: 'embedding'; chunks: number; done: number }
  | { kind: 'moving'; chunks: number; moving: number }
  | { kind: 'rebuilding'; chunks: number; done: number; searchable: number }

export function embeddingState(models: Models, counts: EmbeddingCounts): EmbeddingState {
  const { chunks, searchable, moving, pending } = counts
  if (models.pendingEmbeddingModel !== null) {
    return pending < chunks ? { kind: 'rebuilding', chunks, done: pending, searchable } : done
  }
  if (models.embeddingModel === null) return done
  if (searchable < chunks) return { kind: 'embedding', chunks, done: searchable }
  return moving > 0 ? { kind: 'moving', chunks, moving } : done
}

const done = { kind: 'done' } as const
