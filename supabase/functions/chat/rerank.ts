// Chat's reranking step: the workspace's choice, and the sources in the reranker's order.
import type { SupabaseClient } from 'npm:@supabase/supabase-js@2.119.1'
import type { Source } from '../_shared/core/chat/types.ts'
import { type Reranker, rerankerFor, type Reranking, rerankPassages } from '../_shared/ai/rerank.ts'
import { rerankingModel } from '../_shared/ai/providers.ts'

/**
 * The workspace's reranker, read as the caller (chat_turn does not carry the setting); null
 * when it is off or cannot run, or the read fails: retrieval's order then stands.
 */
export async function chatReranker(
  caller: SupabaseClient,
  workspaceId: string,
  chatModelId: string | null,
): Promise<Reranker | null> {
  // Offline with no rerank model, nothing could rerank: no read.
  if (!chatModelId && !rerankingModel()) return null
  try {
    const { data, error } = await caller
      .from('workspaces')
      .select('reranking')
      .eq('id', workspaceId)
      .maybeSingle<{ reranking: Reranking }>()
    if (error || !data) throw new Error(error?.message ?? 'the workspace is not visible')
    return rerankerFor(data.reranking, chatModelId)
  } catch (error) {
    console.warn(`chat: could not read the reranking setting, not reranking: ${error}`)
    return null
  }
}

/**
 * The best `count` sources in the reranker's order, numbered again from 1. The reranker sees
 * each passage's document's periods and names, read as the caller (without them if that fails).
 */
export async function rerankSources(
  caller: SupabaseClient,
  reranker: Reranker,
  query: string,
  sources: Source[],
  count: number,
): Promise<Source[]> {
  const { data } = await caller
    .from('documents')
    .select('id, periods, names')
    .in('id', [...new Set(sources.map((s) => s.document_id))])
  const signals = new Map(
    ((data ?? []) as { id: string; periods: string[]; names: string[] }[]).map((d) => [d.id, d]),
  )
  const { items } = await rerankPassages(reranker, query, sources, (s) => ({
    title: s.title,
    page_start: s.page_start,
    page_end: s.page_end,
    text: s.content,
    periods: signals.get(s.document_id)?.periods ?? [],
    names: signals.get(s.document_id)?.names ?? [],
  }))
  return items.slice(0, count).map((source, i) => ({ ...source, n: i + 1 }))
}
