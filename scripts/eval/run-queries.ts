import type { SupabaseClient } from '@supabase/supabase-js'
import { mrr, ndcg, percentile, recall } from '../../packages/core/src/retrieval/metrics.ts'
import type { Dataset } from './beir.ts'

export type Bm25Params = { k1?: number; b?: number }

export type Scores = {
  queries: number
  ndcg10: number
  recall10: number
  recall100: number
  mrr10: number
  p50ms: number
  p95ms: number
}

/** A query's ranking: corpus ids, best first, each with its best chunk's score. */
export type Ranking = { id: string; score: number }[]

/** Chunks asked for per query: enough that 100 distinct documents remain after grouping. */
const MATCH_COUNT = 200

/**
 * Runs every query of the split through search_chunks as the signed-in user, ranks corpus
 * ids by their best chunk, and averages the metrics over the queries. Each query's ranking
 * goes into `rankings` when one is given (to diff two runs query by query).
 */
export async function runQueries(
  supabase: SupabaseClient,
  workspaceId: string,
  dataset: Dataset,
  corpusIdOf: Map<string, string>,
  params: Bm25Params,
  rankings?: Map<string, Ranking>,
): Promise<Scores> {
  const totals = { ndcg10: 0, recall10: 0, recall100: 0, mrr10: 0 }
  const latencies: number[] = []
  for (const query of dataset.queries) {
    const started = performance.now()
    const { data, error } = await supabase.rpc('search_chunks', {
      workspace_id: workspaceId,
      query: query.text,
      match_count: MATCH_COUNT,
      snippets: false,
      ...params,
    })
    latencies.push(performance.now() - started)
    if (error) throw new Error(`search_chunks failed on query ${query.id}: ${error.message}`)
    const best = new Map<string, number>()
    for (const row of data as { document_id: string; score: number }[]) {
      const id = corpusIdOf.get(row.document_id)!
      if (!best.has(id)) best.set(id, row.score)
    }
    const ranked = [...best.keys()]
    rankings?.set(
      query.id,
      ranked.map((id) => ({ id, score: best.get(id)! })),
    )
    const relevance = dataset.qrels.get(query.id)!
    totals.ndcg10 += ndcg(ranked, relevance, 10)
    totals.recall10 += recall(ranked, relevance, 10)
    totals.recall100 += recall(ranked, relevance, 100)
    totals.mrr10 += mrr(ranked, relevance, 10)
  }
  const n = dataset.queries.length
  return {
    queries: n,
    ndcg10: totals.ndcg10 / n,
    recall10: totals.recall10 / n,
    recall100: totals.recall100 / n,
    mrr10: totals.mrr10 / n,
    p50ms: percentile(latencies, 0.5),
    p95ms: percentile(latencies, 0.95),
  }
}
