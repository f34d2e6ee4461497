import { describe, expect, it } from 'vitest'
import { checkCitations } from './citations.ts'
import { renumberByFirstUse } from './renumber.ts'
import { source } from './test-sources.ts'

const sources = [1, 2, 3, 4].map((n) => source(n, `Passage ${n} about tides and moons.`))

describe('renumberByFirstUse', () => {
  it('numbers citations 1, 2, 3 in the order the answer first uses them, with no gaps', () => {
    const { answer, sources: numbered } = renumberByFirstUse(
      'Tides rise [3]. Moons pull [1, 3]. Both [3][4].',
      sources,
    )
    expect(answer).toBe('Tides rise [1]. Moons pull [2, 1]. Both [1][3].')
    expect(numbered.map((s) => [s.n, s.chunk_id])).toEqual([
      [1, 'chunk-3'],
      [2, 'chunk-1'],
      [3, 'chunk-4'],
      [4, 'chunk-2'],
    ])
    // The sources panel (the checked citations) then counts and orders as the answer does.
    const { citations } = checkCitations(answer, numbered)
    expect(citations.map((c) => c.n)).toEqual([1, 2, 3])
  })

  it('leaves numbers without a source as written, and an answer without citations alone', () => {
    expect(renumberByFirstUse('See [9] and [2].', sources).answer).toBe('See [9] and [1].')
    const plain = renumberByFirstUse('No citations here.', sources)
    expect(plain.answer).toBe('No citations here.')
    expect(plain.sources.map((s) => s.n)).toEqual([1, 2, 3, 4])
  })
})
