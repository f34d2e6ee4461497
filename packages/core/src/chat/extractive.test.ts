import { describe, expect, it } from 'vitest'
import { checkCitations } from './citations.ts'
import { source } from './test-sources.ts'
import { extractiveAnswer, NO_ANSWER } from './extractive.ts'

const sources = [
  source(
    1,
    'Herbarium methods. Mangrove samples from the estuary were dried slowly to keep their leaves intact. ' +
      'Ferns were pressed on card. Mangrove leaves curl when they are dried too fast.',
  ),
  source(
    2,
    'The voyage log records storms [3] near the estuary. Mangrove roots were photographed at low tide.',
  ),
  source(3, 'Mangrove samples from the estuary were dried slowly to keep their leaves intact!'),
]

describe('extractiveAnswer', () => {
  it('cites the best-matching sentences in passage then reading order, without duplicates', () => {
    const answer = extractiveAnswer('How were the mangrove samples dried?', sources)
    expect(answer).toBe(
      'Mangrove samples from the estuary were dried slowly to keep their leaves intact [1]. ' +
        'Mangrove leaves curl when they are dried too fast [1].',
    )
  })

  it('keeps to four sentences and three a passage', () => {
    const many = [1, 2, 3].map((n) =>
      source(
        n,
        `The tide rose over mudflats. The tide fell past reefs. The tide turned near piers. The tide slept under moonlight.`,
      ),
    )
    const answer = extractiveAnswer('tide', many)
    expect(answer.match(/\[\d\]/g)).toEqual(['[1]', '[1]', '[1]', '[2]'])
  })

  it('passes its own citation check, quoting the sentences it extracted', () => {
    const answer = extractiveAnswer('How were the mangrove samples dried?', sources)
    const { citations, invalid } = checkCitations(answer, sources)
    expect(invalid).toEqual([])
    expect(citations.every((c) => c.supported)).toBe(true)
    expect(citations[0]!.quote).toBe(
      'Mangrove samples from the estuary were dried slowly to keep their leaves intact. … Mangrove leaves curl when they are dried too fast.',
    )
  })

  it("turns a passage's own bracketed numbers into parentheses", () => {
    const answer = extractiveAnswer('storms voyage log', sources)
    expect(answer).toContain('records storms (3) near the estuary [2].')
  })

  it('says the documents do not answer when nothing matches', () => {
    expect(extractiveAnswer('quantum chromodynamics', sources)).toBe(NO_ANSWER)
    expect(extractiveAnswer('mangrove', [])).toBe(NO_ANSWER)
  })
})

describe('extractiveAnswer on Markdown documents', () => {
  const markdown = source(
    1,
    '# Swimming in the lake\n\nSwimming in the lake is **allowed** from June, see [the rules](https://example.test).\n\n' +
      '- Swimming in the lake needs a `permit` from the town hall.\n\n| lake | swimming |\n|---|---|\n| north | yes |',
  )

  it('answers in prose: no headings or table rows, no Markdown syntax', () => {
    const answer = extractiveAnswer('When is swimming in the lake allowed?', [markdown])
    expect(answer).toBe(
      'Swimming in the lake is allowed from June, see the rules [1]. ' +
        'Swimming in the lake needs a permit from the town hall [1].',
    )
    const [checked] = checkCitations(answer, [markdown]).citations
    expect(checked?.supported).toBe(true)
  })
})
