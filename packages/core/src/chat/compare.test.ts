import { describe, expect, it } from 'vitest'
import { extractiveAnswer } from './extractive.ts'
import { ANSWER_INSTRUCTIONS, buildPrompt, COMPARE_INSTRUCTIONS } from './prompt.ts'
import { source } from './test-sources.ts'

// A conversation about several documents compares them: the prompt asks for an answer that
// cites each, and the offline answer takes its sentences from each document in turn.
const question = 'How were the mangrove samples from the estuary dried?'
const herbarium = [
  'The mangrove samples from the estuary were dried slowly over three weeks.',
  'Each mangrove sample taken in the estuary was dried on racks under the roof.',
  'Dried mangrove samples from the estuary were boxed by the curator in spring.',
].map((text, i) => ({ ...source(i + 1, text), document_id: 'herbarium', title: 'Herbarium' }))
// Another document, weaker on the question: compared, it is still heard.
const voyage = {
  ...source(4, 'The crew carried the mangrove samples ashore at dawn.'),
  document_id: 'voyage',
  title: 'Voyage',
}
const sources = [...herbarium, voyage]

describe('comparing documents', () => {
  it('asks the model to cite each document it relies on', () => {
    const compared = buildPrompt({ question, history: [], sources, compare: true })
    expect(compared.system).toBe(`${ANSWER_INSTRUCTIONS}\n${COMPARE_INSTRUCTIONS}`)
    expect(COMPARE_INSTRUCTIONS).toContain('cite each document')
    expect(buildPrompt({ question, history: [], sources }).system).toBe(ANSWER_INSTRUCTIONS)
  })

  it('offline, takes a sentence from each document in turn', () => {
    const plain = extractiveAnswer(question, sources)
    const compared = extractiveAnswer(question, sources, { compare: true })
    // Ranked as one, the herbarium's sentences crowd the voyage out; compared, both are heard.
    expect(plain).not.toContain('[4]')
    expect(compared).toContain('**Herbarium**')
    expect(compared).toContain('**Voyage**')
    expect(compared).toContain('The crew carried the mangrove samples ashore at dawn [4].')
    expect(compared).toContain('dried slowly over three weeks [1]')
    expect(compared.indexOf('**Herbarium**')).toBeLessThan(compared.indexOf('**Voyage**'))
  })
})
