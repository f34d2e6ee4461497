import { describe, expect, it } from 'vitest'
import { findMatches, normalizeQuery, stepMatch } from './find-in-pdf'

const page = (...lines: string[]) => lines.map((str) => ({ str, hasEOL: true }))

describe('findMatches', () => {
  it('finds every occurrence, case-insensitive, in page order', () => {
    const pages = [page('Revenue grew.', 'REVENUE fell.'), page('No match here.'), page('revenue')]
    const matches = findMatches(pages, 'revenue')
    expect(matches.map((m) => m.page)).toEqual([1, 1, 3])
    expect(matches[0]?.parts).toEqual([{ item: 0, start: 0, end: 7 }])
    expect(matches[1]?.parts).toEqual([{ item: 1, start: 0, end: 7 }])
  })

  it('marks the exact characters inside an item', () => {
    const [match] = findMatches([page('Net income was $4.2 billion')], 'Income')
    expect(match?.parts).toEqual([{ item: 0, start: 4, end: 10 }])
  })

  it('matches a phrase broken over two lines, marking both items', () => {
    const matches = findMatches([page('total net', 'sales rose')], 'net sales')
    expect(matches).toEqual([
      {
        page: 1,
        parts: [
          { item: 0, start: 6, end: 9 },
          { item: 1, start: 0, end: 5 },
        ],
      },
    ])
  })

  it('matches across items of one line and collapses runs of whitespace', () => {
    const items = [{ str: 'operating ' }, { str: '  income', hasEOL: true }]
    expect(findMatches([items], '  Operating   income ')).toHaveLength(1)
  })

  it('does not count overlapping occurrences twice', () => {
    expect(findMatches([page('aaaa')], 'aa')).toHaveLength(2)
  })

  it('finds nothing for an empty query or absent text', () => {
    expect(findMatches([page('text')], '   ')).toEqual([])
    expect(findMatches([page('text')], 'absent')).toEqual([])
  })
})

describe('normalizeQuery', () => {
  it('lower-cases and trims', () => expect(normalizeQuery(' Net\tSales ')).toBe('net sales'))
})

describe('stepMatch', () => {
  it('moves forward and back, wrapping around', () => {
    expect(stepMatch(0, 3, 1)).toBe(1)
    expect(stepMatch(2, 3, 1)).toBe(0)
    expect(stepMatch(0, 3, -1)).toBe(2)
    expect(stepMatch(-1, 3, 1)).toBe(0)
    expect(stepMatch(0, 0, 1)).toBe(-1)
  })
})
