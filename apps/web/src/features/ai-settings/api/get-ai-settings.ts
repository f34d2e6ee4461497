import { queryOptions, useQuery } from '@tanstack/react-query'
import { supabase } from '@/lib/supabase'
import { aiSettingsKeys } from './keys'
import type { Reranking } from './update-reranking'

export type AiSettings = {
  chatModel: string | null
  embeddingModel: string | null
  pendingEmbeddingModel: string | null
  reranking: Reranking
  /** The workspace's chunks, and how many still lack a vector for the model being built. */
  chunks: number
  missing: number
}

const count = (query: PromiseLike<{ count: number | null; error: unknown }>): Promise<number> =>
  Promise.resolve(query).then(({ count, error }) => {
    if (error) throw error
    return count ?? 0
  })

/** The workspace's models, and how far the vectors of the model being built have come. */
export async function getAiSettings(workspaceId: string): Promise<AiSettings> {
  const { data, error } = await supabase
    .from('workspaces')
    .select('chat_model, embedding_model, pending_embedding_model, reranking')
    .eq('id', workspaceId)
    .single()
  if (error) throw error
  const pending = data.pending_embedding_model
  const head = { count: 'exact', head: true } as const
  const [chunks, done] = await Promise.all([
    count(supabase.from('chunks').select('id', head).eq('workspace_id', workspaceId)),
    pending
      ? count(
          supabase
            .from('chunk_embeddings')
            .select('chunk_id', head)
            .eq('workspace_id', workspaceId)
            .eq('model', pending),
        )
      : data.embedding_model
        ? count(
            supabase
              .from('chunks')
              .select('id', head)
              .eq('workspace_id', workspaceId)
              .eq('embedding_model', data.embedding_model),
          )
        : Promise.resolve(0),
  ])
  return {
    chatModel: data.chat_model,
    embeddingModel: data.embedding_model,
    pendingEmbeddingModel: pending,
    reranking: data.reranking as Reranking,
    chunks,
    missing: pending || data.embedding_model ? chunks - done : 0,
  }
}

export const getAiSettingsQueryOptions = (workspaceId: string) =>
  queryOptions({
    queryKey: aiSettingsKeys.workspace(workspaceId),
    queryFn: () => getAiSettings(workspaceId),
    // While vectors are being made (by an owner's page or an import), the count moves.
    refetchInterval: (query) => ((query.state.data?.missing ?? 0) > 0 ? 5000 : false),
  })

export function useAiSettings(workspaceId: string) {
  return useQuery(getAiSettingsQueryOptions(workspaceId))
}
