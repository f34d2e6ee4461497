import {
  citingShare,
  type Evidence,
  onEvidence,
  type PageHit,
  type RankingScore,
  scoreRanking,
  summarizeRankings,
} from '../../../packages/core/src/retrieval/page-metrics.ts'
import type { Answered } from './ask-library.ts'

const evidenceOf = ({ question }: Answered): Evidence => ({
  document: question.file,
  pages: question.evidence.map((e) => e.page),
})

/** The numbers of a run, as the final JSON line prints them. */
export function libraryScores(answers: Answered[]) {
  const whole = summarizeRankings(answers.map((a) => scoreRanking(a.workspace, evidenceOf(a))))
  const filtered = summarizeRankings(answers.map((a) => scoreRanking(a.document, evidenceOf(a))))
  const round = (x: number) => Math.round(x * 10_000) / 10_000
  return {
    questions: answers.length,
    workspace: {
      recall5: round(whole.recall5),
      recall10: round(whole.recall10),
      recall20: round(whole.recall20),
      mrr: round(whole.mrr),
      document_hit5: round(whole.documentHit5),
    },
    // Filtered to the question's document, a document hit is a given: not reported.
    document: {
      recall5: round(filtered.recall5),
      recall10: round(filtered.recall10),
      recall20: round(filtered.recall20),
      mrr: round(filtered.mrr),
    },
    chat_citing_evidence: round(
      citingShare(answers.map((a) => ({ citations: a.citations, evidence: evidenceOf(a) }))),
    ),
  }
}

export type LibraryScores = ReturnType<typeof libraryScores>

/** The table of a run, a few lines of plain text. */
export function scoreTable(scores: LibraryScores): string {
  const f = (x: number) => x.toFixed(3).padStart(9)
  const row = (name: string, s: LibraryScores['document'], documentHit?: number) =>
    `${name.padEnd(22)}${f(s.recall5)}${f(s.recall10)}${f(s.recall20)}${f(s.mrr)}` +
    (documentHit === undefined ? '        —' : f(documentHit))
  return [
    `${scores.questions} questions; page recall at 5, 10, 20; MRR within 20; document hit at 5`,
    `${''.padEnd(22)}${['R@5', 'R@10', 'R@20', 'MRR', 'doc@5'].map((h) => h.padStart(9)).join('')}`,
    row('whole workspace', scores.workspace, scores.workspace.document_hit5),
    row('filtered to document', scores.document),
    `offline chat answers citing an evidence page: ${scores.chat_citing_evidence.toFixed(3)}`,
  ].join('\n')
}

const rankText = ({ rank }: RankingScore) => (rank === null ? '-' : String(rank))

const pages = (hit: PageHit) =>
  hit.pageStart === null
    ? ''
    : hit.pageEnd === null || hit.pageEnd === hit.pageStart
      ? ` p${hit.pageStart}`
      : ` p${hit.pageStart}-${hit.pageEnd}`

/**
 * One question's line for --verbose: the rank of the first evidence hit over the workspace
 * and in the document (- when not in the top 20), whether the answer cites an evidence
 * page, the evidence pages, and the top 5 of the workspace ranking (* on evidence).
 */
export function questionLine(answered: Answered): string {
  const evidence = evidenceOf(answered)
  const cites = answered.citations.some((c) => onEvidence(c, evidence))
  const top = answered.workspace
    .slice(0, 5)
    .map((hit) => `${onEvidence(hit, evidence) ? '*' : ''}${hit.document}${pages(hit)}`)
  return [
    `${answered.question.id} ${evidence.document} p${evidence.pages.join(',')}`,
    `  rank workspace ${rankText(scoreRanking(answered.workspace, evidence))}, ` +
      `document ${rankText(scoreRanking(answered.document, evidence))}, ` +
      `chat ${cites ? 'cites evidence' : 'misses'}`,
    `  top 5: ${top.join(' | ') || '(nothing)'}`,
  ].join('\n')
}
