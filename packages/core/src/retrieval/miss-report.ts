/**
 * Why a ranking missed: for a question whose evidence page is not in the first results, where
 * the evidence does rank in a deeper ranking and what outranks it. Read by eval:library's
 * --explain, to find the class of a miss (near-duplicate pages, boilerplate query words, a
 * table without the question's words) before changing the ranking.
 */
import { type Evidence, onEvidence, type PageHit } from './page-metrics.ts'

/** One result of a deep ranking: where it is, its score, and the search's snippet. */
export type ExplainedHit = PageHit & { score: number; snippet: string }

export type Miss = {
  /** The 1-based rank of the first result on an evidence page, null when none is ranked. */
  rank: number | null
  /** That result, null when none is ranked. */
  evidence: ExplainedHit | null
  /** The first results, the ones that outrank the evidence. */
  above: ExplainedHit[]
}

/** Where the evidence ranks in `ranked` (best first) and the first `shown` results above it. */
export function explainMiss(ranked: readonly ExplainedHit[], evidence: Evidence, shown = 5): Miss {
  const at = ranked.findIndex((hit) => onEvidence(hit, evidence))
  const above = ranked.slice(0, at < 0 ? shown : Math.min(shown, at))
  return { rank: at < 0 ? null : at + 1, evidence: at < 0 ? null : ranked[at]!, above }
}

const pages = (hit: PageHit) =>
  hit.pageStart === null
    ? 'no page'
    : hit.pageEnd === null || hit.pageEnd === hit.pageStart
      ? `p${hit.pageStart}`
      : `p${hit.pageStart}-${hit.pageEnd}`

/** A snippet on one line without the search's <mark> tags, cut to `width` characters. */
export function plainSnippet(snippet: string, width = 100): string {
  const text = snippet
    .replace(/<\/?mark>/g, '')
    .replace(/\s+/g, ' ')
    .trim()
  return text.length <= width ? text : `${text.slice(0, width - 1)}…`
}

const line = (label: string, hit: ExplainedHit) =>
  `  ${label.padStart(4)} ${pages(hit).padEnd(9)} ${hit.score.toFixed(2).padStart(7)}  ${plainSnippet(hit.snippet)}`

/** The report of one miss: the evidence's rank and score (or "not ranked"), then what is above. */
export function missLines(miss: Miss, depth: number): string[] {
  const head = miss.evidence
    ? `evidence at rank ${miss.rank} of ${depth}:`
    : `evidence not in the first ${depth}`
  return [
    head,
    ...(miss.evidence ? [line('ev', miss.evidence)] : []),
    ...miss.above.map((hit, i) => line(String(i + 1), hit)),
  ]
}
