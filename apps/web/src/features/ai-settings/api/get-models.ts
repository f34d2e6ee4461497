import { queryOptions, useQuery } from '@tanstack/react-query'
import { supabase } from '@/lib/supabase'
import { aiSettingsKeys } from './keys'

export type ModelProvider = 'openai' | 'anthropic' | 'google' | 'compatible'
export type ChatModel = { id: string; label: string; provider: ModelProvider }
export type EmbeddingModel = ChatModel & { dimensions: number | null }
/** `rerank`: models behind an OpenAI-compatible server's /rerank, when the server names one. */
export type AvailableModels = {
  chat: ChatModel[]
  embedding: EmbeddingModel[]
  rerank: ChatModel[]
}

/** What the server's functions can use, decided by their environment (no keys come back). */
export async function getModels(): Promise<AvailableModels> {
  const { data, error } = await supabase.functions.invoke<AvailableModels>('models')
  if (error) throw error
  return data!
}

export function useModels() {
  return useQuery(
    queryOptions({ queryKey: aiSettingsKeys.models(), queryFn: getModels, staleTime: 60_000 }),
  )
}
