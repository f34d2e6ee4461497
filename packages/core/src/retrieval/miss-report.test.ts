import { describe, expect, it } from 'vitest'
import { explainMiss, type ExplainedHit, missLines, plainSnippet } from './miss-report.ts'
import type { Evidence } from './page-metrics.ts'

const hit = (pageStart: number, pageEnd: number, score: number, snippet = ''): ExplainedHit => ({
  document: 'a.pdf',
  pageStart,
  pageEnd,
  score,
  snippet,
})

// The answer is on page 40 of a.pdf.
const evidence: Evidence = { document: 'a.pdf', pages: [40] }

describe('explainMiss', () => {
  const ranked = [
    hit(3, 3, 9.5, 'Table of <mark>contents</mark>'),
    hit(7, 8, 8.25),
    hit(12, 12, 7),
    hit(39, 40, 6.5, 'Consolidated balance sheet'),
  ]

  it('finds the evidence deeper in the ranking, with what outranks it', () => {
    const miss = explainMiss(ranked, evidence, 2)
    expect(miss.rank).toBe(4)
    expect(miss.evidence).toBe(ranked[3])
    expect(miss.above).toEqual(ranked.slice(0, 2))
  })

  it('shows no more than what ranks above the evidence', () => {
    expect(explainMiss(ranked, { document: 'a.pdf', pages: [8] }, 5).above).toEqual([ranked[0]])
  })

  it('says so when the evidence is not ranked at all', () => {
    const miss = explainMiss(ranked, { document: 'b.pdf', pages: [40] }, 3)
    expect(miss).toEqual({ rank: null, evidence: null, above: ranked.slice(0, 3) })
  })
})

describe('missLines', () => {
  it('prints the rank, the evidence line and the lines above it', () => {
    const lines = missLines(
      explainMiss(
        [hit(3, 3, 9.5, 'Table of <mark>contents</mark>'), hit(40, 40, 2, 'x')],
        evidence,
      ),
      100,
    )
    expect(lines).toEqual([
      'evidence at rank 2 of 100:',
      '    ev p40          2.00  x',
      '     1 p3           9.50  Table of contents',
    ])
  })

  it('says the evidence is not in the ranking', () => {
    expect(missLines(explainMiss([], evidence), 100)).toEqual(['evidence not in the first 100'])
  })
})

describe('plainSnippet', () => {
  it('drops the marks and line breaks and cuts long text', () => {
    expect(plainSnippet('Net <mark>revenue</mark>\n  rose', 100)).toBe('Net revenue rose')
    expect(plainSnippet('abcdefghij', 5)).toBe('abcd…')
  })
})
