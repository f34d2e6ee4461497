// Chat's reranking step: the workspace's choice, and the sources in the reranker's order.
import type { SupabaseClient } from 'npm:@supabase/supabase-js@2.119.1'
import type { Source } from '../../../packages/core/src/chat/types.ts'
import { type Reranker, rerankerFor, type Reranking, rerankPassages } from '../_shared/ai/rerank.ts'

/**
 * The workspace's reranker, read as the caller (chat_turn does not carry the setting); null
 * when it is off or cannot run, or the read fails: retrieval's order then stands.
 */
export async function chatReranker(
  caller: SupabaseClient,
  workspaceId: string,
  chatModelId: string | null,
): Promise<Reranker | null> {
  const { data, error } = await caller
    .from('workspaces')
    .select('reranking')
    .eq('id', workspaceId)
    .maybeSingle<{ reranking: Reranking }>()
  if (error || !data) {
    console.warn(`chat: could not read the reranking setting, not reranking: ${error?.message}`)
    return null
  }
  return rerankerFor(data.reranking, chatModelId)
}

/** The best `count` sources in the reranker's order, numbered again from 1. */
export async function rerankSources(
  reranker: Reranker,
  query: string,
  sources: Source[],
  count: number,
): Promise<Source[]> {
  const { items } = await rerankPassages(reranker, query, sources, (s) => ({
    title: s.title,
    page_start: s.page_start,
    page_end: s.page_end,
    text: s.content,
  }))
  return items.slice(0, count).map((source, i) => ({ ...source, n: i + 1 }))
}
