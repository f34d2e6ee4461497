// Generated from packages/core/src/retrieval/page-metrics.ts by `npm run sync:core`: edit that file, not this one.
/**
 * Page-level retrieval metrics for a library: does a ranked list of passages reach a page
 * where the answer is? A passage spanning pages p1..p2 of a document is on every page of that
 * range (chunks cross page breaks, and the range is all a result says about where it is), so
 * it hits when its document is the question's and some evidence page lies in p1..p2.
 */

/** One ranked result (or citation): its document and the pages it spans, 1-based. */
export type PageHit = { document: string; pageStart: number | null; pageEnd: number | null }

/** Where a question's answer is: one document and its evidence pages, 1-based. */
export type Evidence = { document: string; pages: readonly number[] }

/** Whether the result lies on an evidence page; a result without pages never does. */
export function onEvidence(hit: PageHit, evidence: Evidence): boolean {
  if (hit.document !== evidence.document || hit.pageStart === null) return false
  const last = hit.pageEnd ?? hit.pageStart
  return evidence.pages.some((page) => page >= hit.pageStart! && page <= last)
}

/** The 1-based rank of the first result on an evidence page within the first k, else null. */
export function firstEvidenceRank(
  ranked: readonly PageHit[],
  evidence: Evidence,
  k: number,
): number | null {
  const at = ranked.slice(0, k).findIndex((hit) => onEvidence(hit, evidence))
  return at < 0 ? null : at + 1
}

/** Whether the evidence document is among the documents of the first k results. */
export function documentFound(ranked: readonly PageHit[], evidence: Evidence, k: number): boolean {
  return ranked.slice(0, k).some((hit) => hit.document === evidence.document)
}

/** How deep a ranking is read: the last page-recall cut-off, and MRR's depth. */
export const DEPTH = 20
/** Document hit is reported at this cut-off. */
export const DOCUMENT_AT = 5

/** What one ranking of one question scored. */
export type RankingScore = { rank: number | null; documentHit: boolean }

export function scoreRanking(ranked: readonly PageHit[], evidence: Evidence): RankingScore {
  return {
    rank: firstEvidenceRank(ranked, evidence, DEPTH),
    documentHit: documentFound(ranked, evidence, DOCUMENT_AT),
  }
}

/** The averages over questions: page recall at each cut-off, MRR within DEPTH, document hit. */
export type RankingSummary = {
  recall5: number
  recall10: number
  recall20: number
  mrr: number
  documentHit5: number
}

/** Averages the scores of many questions (NaN for none: there is nothing to average). */
export function summarizeRankings(scores: readonly RankingScore[]): RankingSummary {
  const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length
  const recallAt = (k: number) => mean(scores.map((s) => (s.rank !== null && s.rank <= k ? 1 : 0)))
  return {
    recall5: recallAt(5),
    recall10: recallAt(10),
    recall20: recallAt(DEPTH),
    mrr: mean(scores.map((s) => (s.rank === null ? 0 : 1 / s.rank))),
    documentHit5: mean(scores.map((s) => (s.documentHit ? 1 : 0))),
  }
}

/** Share of answers with at least one citation on an evidence page. */
export function citingShare(
  answers: readonly { citations: readonly PageHit[]; evidence: Evidence }[],
): number {
  const citing = answers.filter((a) => a.citations.some((c) => onEvidence(c, a.evidence)))
  return citing.length / answers.length
}
