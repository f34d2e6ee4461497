// A search query's embedding, for hybrid retrieval (search and chat share it).
import { embed } from './deps.ts'
import { providerErrorMessage } from './errors.ts'
import { embeddingModel } from './providers.ts'

/**
 * The request header telling the database which model made a query's vector: search's SQL
 * (vector_top) compares it with the workspace's active model, which a promotion may have
 * changed since the caller read it, and searches lexically when they differ.
 */
export const queryModelHeader = 'x-query-embedding-model'

/** A query is short: if the provider takes longer than this, lexical search answers alone. */
const timeoutMs = 5000

/**
 * The query's vector with the workspace's active embedding model, or null when there is no
 * model or the provider fails: search then ranks lexically rather than failing.
 */
export async function embedQueryWith(modelId: string | null, query: string) {
  if (!modelId) return null
  try {
    const { embedding } = await embed({
      model: embeddingModel(modelId),
      value: query,
      // No retries: a person is waiting, and the lexical ranking is a fine fallback.
      maxRetries: 0,
      abortSignal: AbortSignal.timeout(timeoutMs),
    })
    return embedding
  } catch (error) {
    console.error(`query embedding failed, lexical only: ${providerErrorMessage(error).message}`)
    return null
  }
}
