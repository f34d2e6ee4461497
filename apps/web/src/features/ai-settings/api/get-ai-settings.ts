import { queryOptions, useQuery } from '@tanstack/react-query'
import { supabase } from '@/lib/supabase'
import { embeddingState, type EmbeddingCounts } from '../utils/embedding-state'
import { aiSettingsKeys } from './keys'
import type { Reranking } from './update-reranking'

export type AiSettings = {
  chatModel: string | null
  embeddingModel: string | null
  pendingEmbeddingModel: string | null
  reranking: Reranking
  embedding: EmbeddingCounts
}

/** The workspace's models, and how far the vectors of the model being built have come. */
export async function getAiSettings(workspaceId: string): Promise<AiSettings> {
  const [settings, progress] = await Promise.all([
    supabase.from('workspaces').select('chat_model, reranking').eq('id', workspaceId).single(),
    supabase.rpc('embedding_progress', { workspace_id: workspaceId }).single(),
  ])
  if (settings.error) throw settings.error
  if (progress.error) throw progress.error
  // The embedding models from the same snapshot as their counts: a promotion between the two
  // reads would pair one state's models with the other's counts.
  const { embedding_model, pending_embedding_model, ...embedding } = progress.data
  return {
    chatModel: settings.data.chat_model,
    embeddingModel: embedding_model,
    pendingEmbeddingModel: pending_embedding_model,
    reranking: settings.data.reranking as Reranking,
    embedding,
  }
}

export const getAiSettingsQueryOptions = (workspaceId: string) =>
  queryOptions({
    queryKey: aiSettingsKeys.workspace(workspaceId),
    queryFn: () => getAiSettings(workspaceId),
    // While vectors are being made or moved (by an owner's page or an import), the counts move.
    refetchInterval: (query) =>
      query.state.data &&
      embeddingState(query.state.data, query.state.data.embedding).kind !== 'done'
        ? 5000
        : false,
  })

export function useAiSettings(workspaceId: string) {
  return useQuery(getAiSettingsQueryOptions(workspaceId))
}
