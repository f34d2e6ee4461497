// Search's reranking step: which reranker a request gets, and the rows in its order.
import type { SupabaseClient } from 'npm:@supabase/supabase-js@2.119.1'
import {
  RERANK_DEPTH,
  type Reranker,
  rerankerFor,
  type Reranking,
  rerankPassages,
} from '../_shared/ai/rerank.ts'
import { rerankingModel } from '../_shared/ai/providers.ts'

export type Settings = { chat_model: string | null; reranking: Reranking }

type Row = {
  chunk_id: string
  title: string
  page_start: number | null
  page_end: number | null
  snippet: string
}

/**
 * The reranker for a request: `rerank: false` turns it off, `true` asks for it even when the
 * workspace's setting is off (then the rerank model if the server has one, else the judge),
 * and no answer follows the workspace's setting.
 */
export function searchReranker(asked: boolean | undefined, settings: Settings): Reranker | null {
  if (asked === false) return null
  const fallback: Reranking = rerankingModel() ? 'model' : 'judge'
  const choice = asked && settings.reranking === 'off' ? fallback : settings.reranking
  return rerankerFor(choice, settings.chat_model)
}

/** How many rows to retrieve so that reranking has its depth to choose from. */
export const candidates = (limit: number, reranker: Reranker | null) =>
  reranker ? Math.max(limit, RERANK_DEPTH) : limit

type Passage = {
  id: string
  content: string
  documents: { periods: string[]; names: string[] } | null
}

/**
 * The best `limit` rows in the reranker's order. It reads each passage whole (search rows
 * carry a snippet) with its document's periods and names, as the caller; if that read
 * fails, it judges the snippets and titles alone.
 */
export async function rerankRows<T extends Row>(
  api: SupabaseClient,
  authorization: string,
  reranker: Reranker,
  query: string,
  rows: T[],
  limit: number,
): Promise<{ rows: T[]; reranked: boolean }> {
  const head = rows.slice(0, RERANK_DEPTH)
  const { data } = await api
    .from('chunks')
    .select('id, content, documents(periods, names)')
    .in(
      'id',
      head.map((r) => r.chunk_id),
    )
    .setHeader('Authorization', authorization)
  const passages = new Map(((data ?? []) as unknown as Passage[]).map((p) => [p.id, p]))
  const { items, reranked } = await rerankPassages(reranker, query, head, (row) => {
    const passage = passages.get(row.chunk_id)
    return {
      title: row.title,
      page_start: row.page_start,
      page_end: row.page_end,
      text: passage?.content ?? row.snippet,
      periods: passage?.documents?.periods ?? [],
      names: passage?.documents?.names ?? [],
    }
  })
  return { rows: [...items, ...rows.slice(RERANK_DEPTH)].slice(0, limit), reranked }
}
