// The query's embedding for the hybrid (BM25 + vector) ranking, or null for lexical only.
import type { SupabaseClient } from 'npm:@supabase/supabase-js@2.119.1'
import { embedQueryWith } from '../_shared/ai/query.ts'

/**
 * Embeds the query with the workspace's active embedding model (the one chunks.embedding
 * holds; a pending model's vectors are not searchable until promoted). Read as the caller,
 * so a non-member gets null, and search_chunks finds nothing for them anyway.
 */
export async function embedQuery(
  caller: SupabaseClient,
  workspaceId: string,
  query: string,
): Promise<number[] | null> {
  const { data } = await caller
    .from('workspaces')
    .select('embedding_model')
    .eq('id', workspaceId)
    .maybeSingle<{ embedding_model: string | null }>()
  return embedQueryWith(data?.embedding_model ?? null, query)
}
