import type { SupabaseClient } from 'npm:@supabase/supabase-js@2.119.1'
import type { Citation, Source } from '../_shared/core/chat/types.ts'
import { embedMany } from '../_shared/ai/deps.ts'
import { embeddingModel, maxRetries } from '../_shared/ai/providers.ts'
import { queryModelHeader } from '../_shared/ai/query.ts'

/** How many passages an answer is given. */
export const PASSAGES = 8

/**
 * The query's vector under the workspace's active embedding model, so retrieval is hybrid
 * as in search; null (lexical only) without a model or when the provider fails, because a
 * keyword answer beats no answer.
 */
async function embedQuery(modelId: string | null, query: string): Promise<number[] | null> {
  if (!modelId) return null
  try {
    const { embeddings } = await embedMany({
      model: embeddingModel(modelId),
      values: [query],
      maxRetries,
    })
    return embeddings[0] ?? null
  } catch (error) {
    console.warn(`chat: embedding the query failed, searching by keywords only: ${error}`)
    return null
  }
}

/**
 * The passages for a query, numbered from 1 in rank order, retrieved as the caller (RLS)
 * from the conversation's scope (chat_sources reads it, so no answer can leave it).
 */
export async function retrieve(
  caller: SupabaseClient,
  workspaceId: string,
  embeddingModelId: string | null,
  query: string,
  conversationId: string,
  count = PASSAGES,
): Promise<Source[]> {
  const embedding = await embedQuery(embeddingModelId, query)
  const sources = caller.rpc('chat_sources', {
    workspace_id: workspaceId,
    query,
    match_count: count,
    query_embedding: embedding === null ? null : JSON.stringify(embedding),
    conversation_id: conversationId,
  })
  // The model the vector is of: a promotion since the workspace was read makes it lexical.
  const { data, error } = await (embedding === null
    ? sources
    : sources.setHeader(queryModelHeader, embeddingModelId!))
  if (error) throw new Error(`Could not search the documents: ${error.message}`)
  // Each with its document's type, which its citation keeps so the browser labels its place.
  return (data as Omit<Source, 'n'>[]).map((row, i) => ({ n: i + 1, ...row }))
}

/** Whether the conversation keeps to several documents, so its answer should draw on each. */
export async function comparing(caller: SupabaseClient, conversationId: string): Promise<boolean> {
  const { data, error } = await caller.rpc('conversation_compares', {
    conversation_id: conversationId,
  })
  if (error) throw new Error(`Could not read the conversation's scope: ${error.message}`)
  return data === true
}

/** A source as the `sources` event shows it: the whole passage as its quote, unchecked. */
export function asCitation({ content, heading_path: _headingPath, ...source }: Source): Citation {
  return { ...source, quote: content, supported: null }
}
