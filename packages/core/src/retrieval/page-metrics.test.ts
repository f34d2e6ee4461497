import { describe, expect, it } from 'vitest'
import {
  citingShare,
  documentFound,
  type Evidence,
  firstEvidenceRank,
  onEvidence,
  type PageHit,
  scoreRanking,
  summarizeRankings,
} from './page-metrics.ts'

const hit = (document: string, pageStart: number | null, pageEnd = pageStart): PageHit => ({
  document,
  pageStart,
  pageEnd,
})

// The answer is on pages 12 and 14 of a.pdf.
const evidence: Evidence = { document: 'a.pdf', pages: [12, 14] }

describe('onEvidence', () => {
  it('holds when the page range of a result of the evidence document covers an evidence page', () => {
    expect(onEvidence(hit('a.pdf', 12), evidence)).toBe(true)
    expect(onEvidence(hit('a.pdf', 13, 14), evidence)).toBe(true)
    expect(onEvidence(hit('a.pdf', 10, 12), evidence)).toBe(true)
    // Between the two evidence pages, or beside them: no.
    expect(onEvidence(hit('a.pdf', 13), evidence)).toBe(false)
    expect(onEvidence(hit('a.pdf', 15, 16), evidence)).toBe(false)
  })

  it('never holds for another document on the same page, or a result without pages', () => {
    expect(onEvidence(hit('b.pdf', 12), evidence)).toBe(false)
    expect(onEvidence(hit('a.pdf', null), evidence)).toBe(false)
    // A start without an end is one page.
    expect(onEvidence({ document: 'a.pdf', pageStart: 14, pageEnd: null }, evidence)).toBe(true)
  })
})

describe('firstEvidenceRank and documentFound', () => {
  const ranked = [hit('b.pdf', 12), hit('a.pdf', 3), hit('a.pdf', 13, 14), hit('a.pdf', 12)]

  it('is the 1-based rank of the first result on an evidence page, within k', () => {
    expect(firstEvidenceRank(ranked, evidence, 20)).toBe(3)
    expect(firstEvidenceRank(ranked, evidence, 3)).toBe(3)
    expect(firstEvidenceRank(ranked, evidence, 2)).toBeNull()
    expect(firstEvidenceRank([], evidence, 20)).toBeNull()
  })

  it('finds the evidence document among the first k results, whatever their pages', () => {
    expect(documentFound(ranked, evidence, 2)).toBe(true)
    expect(documentFound(ranked, evidence, 1)).toBe(false)
  })
})

describe('summarizeRankings', () => {
  it('averages recall at 5, 10 and 20, MRR within 20 and document hit at 5 over questions', () => {
    // Four questions whose first evidence hits are at ranks 1, 7, 20 and none (a miss).
    const scores = [
      { rank: 1, documentHit: true },
      { rank: 7, documentHit: true },
      { rank: 20, documentHit: false },
      { rank: null, documentHit: false },
    ]
    const summary = summarizeRankings(scores)
    expect(summary.recall5).toBe(1 / 4)
    expect(summary.recall10).toBe(2 / 4)
    expect(summary.recall20).toBe(3 / 4)
    // (1 + 1/7 + 1/20 + 0) / 4
    expect(summary.mrr).toBeCloseTo((1 + 1 / 7 + 0.05) / 4, 12)
    expect(summary.documentHit5).toBe(2 / 4)
  })

  it('scores a ranking deeper than 20 only within 20', () => {
    const deep = [...Array.from({ length: 20 }, () => hit('b.pdf', 12)), hit('a.pdf', 12)]
    expect(scoreRanking(deep, evidence)).toEqual({ rank: null, documentHit: false })
    const shallow = [hit('b.pdf', 1), hit('a.pdf', 40), hit('a.pdf', 14)]
    expect(scoreRanking(shallow, evidence)).toEqual({ rank: 3, documentHit: true })
  })

  it('is NaN with no questions, rather than a misleading zero', () => {
    expect(summarizeRankings([]).recall5).toBeNaN()
  })
})

describe('citingShare', () => {
  it('is the share of answers with a citation on an evidence page of their own question', () => {
    const answers = [
      { citations: [hit('b.pdf', 12), hit('a.pdf', 14)], evidence },
      // Right page number, wrong document.
      { citations: [hit('b.pdf', 12)], evidence },
      { citations: [], evidence },
    ]
    expect(citingShare(answers)).toBe(1 / 3)
  })
})
