import { describe, expect, it } from 'vitest'
import { checkCitations, parseCitations } from './citations.ts'
import { source } from './test-sources.ts'

const mangroves = source(
  1,
  'The estuary was surveyed in spring. Mangrove samples were dried slowly to keep the leaves intact. Ferns were pressed.',
)
const storms = source(2, 'Storms kept the ship in harbour for a week.', null)

describe('parseCitations', () => {
  it('finds single, grouped and adjacent markers once each, in order', () => {
    expect(parseCitations('A [2]. B [1, 3][2]. C [10]')).toEqual([2, 1, 3, 10])
    expect(parseCitations('No citations [a] or [ ] here')).toEqual([])
  })
})

describe('checkCitations', () => {
  it('marks a sentence whose words the passage holds as supported, quoting the closest sentence', () => {
    const { citations, invalid } = checkCitations('The mangrove samples were dried slowly [1].', [
      mangroves,
      storms,
    ])
    expect(invalid).toEqual([])
    expect(citations).toEqual([
      {
        n: 1,
        chunk_id: 'chunk-1',
        document_id: 'doc-1',
        title: 'Document 1',
        page_start: 1,
        page_end: 2,
        char_start: 100 + 36,
        char_end: 100 + 97,
        quote: 'Mangrove samples were dried slowly to keep the leaves intact.',
        supported: true,
      },
    ])
  })

  it('marks a citation unsupported when the passage does not hold the sentence', () => {
    const { citations } = checkCitations('The ship stayed in harbour because of storms [1].', [
      mangroves,
      storms,
    ])
    expect(citations.map((c) => [c.n, c.supported])).toEqual([[1, false]])
  })

  it('lists numbers that have no source and leaves them out of the citations', () => {
    const { citations, invalid } = checkCitations('Storms kept the ship in harbour [2][7].', [
      mangroves,
      storms,
    ])
    expect(invalid).toEqual([7])
    expect(citations).toHaveLength(1)
    expect(citations[0]).toMatchObject({ n: 2, supported: true, char_start: null, char_end: null })
  })

  it('gives a marker opening a sentence to the sentence before', () => {
    const { citations } = checkCitations(
      'Storms kept the ship in harbour. [2] Ferns were pressed [1].',
      [mangroves, storms],
    )
    expect(citations.map((c) => [c.n, c.supported, c.quote])).toEqual([
      [2, true, 'Storms kept the ship in harbour for a week.'],
      [1, true, 'Ferns were pressed.'],
    ])
  })

  it('accepts a sentence that two passages support together', () => {
    const { citations } = checkCitations(
      'Mangrove samples were dried while storms kept the ship in harbour [1][2].',
      [mangroves, storms],
    )
    expect(citations.map((c) => c.supported)).toEqual([true, true])
  })

  it('is false when any sentence citing the source is unsupported, null when none can be judged', () => {
    const mixed = checkCitations('Ferns were pressed [1]. Whales sang loudly offshore [1].', [
      mangroves,
    ])
    expect(mixed.citations[0]!.supported).toBe(false)
    expect(mixed.citations[0]!.quote).toContain(' … ')
    expect(checkCitations('It is [1].', [mangroves]).citations[0]!.supported).toBeNull()
  })
})
