// Generated from packages/core/src/retrieval/metrics.ts by `npm run sync:core`: edit that file, not this one.
/**
 * Ranking metrics as BEIR reports them (pytrec_eval): `ranked` is a result list, best first,
 * without repeats; `relevance` maps the judged ids to their grade (0 or absent: irrelevant).
 */
export type Relevance = ReadonlyMap<string, number>

/** Normalised discounted cumulative gain at k, with linear gains. */
export function ndcg(ranked: readonly string[], relevance: Relevance, k: number): number {
  const dcg = ranked
    .slice(0, k)
    .reduce((sum, id, i) => sum + (relevance.get(id) ?? 0) / Math.log2(i + 2), 0)
  const ideal = [...relevance.values()]
    .filter((grade) => grade > 0)
    .sort((a, b) => b - a)
    .slice(0, k)
    .reduce((sum, grade, i) => sum + grade / Math.log2(i + 2), 0)
  return ideal === 0 ? 0 : dcg / ideal
}

/** Share of the relevant ids found in the first k results. */
export function recall(ranked: readonly string[], relevance: Relevance, k: number): number {
  const relevant = [...relevance].filter(([, grade]) => grade > 0).length
  if (relevant === 0) return 0
  const found = ranked.slice(0, k).filter((id) => (relevance.get(id) ?? 0) > 0).length
  return found / relevant
}

/** Reciprocal rank of the first relevant result within the first k, else 0. */
export function mrr(ranked: readonly string[], relevance: Relevance, k: number): number {
  const at = ranked.slice(0, k).findIndex((id) => (relevance.get(id) ?? 0) > 0)
  return at < 0 ? 0 : 1 / (at + 1)
}

/** The value at quantile q (0..1) of the samples, by the nearest-rank method. */
export function percentile(samples: readonly number[], q: number): number {
  if (samples.length === 0) return Number.NaN
  const sorted = [...samples].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!
}
