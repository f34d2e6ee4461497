import { describe, expect, it } from 'vitest'
import { clearsBar, MANY_TERMS, queryTerms, RELEVANCE_BAR, scorer } from './relevance.ts'
import { contentWords } from './words.ts'

const words = (text: string) => new Set(contentWords(text))

describe('queryTerms', () => {
  it('stems the content words and marks names and numbers inside the question', () => {
    expect(queryTerms('What is the hotel limit in New York for 2024?')).toEqual([
      { word: 'hotel', named: false },
      { word: 'limit', named: false },
      { word: 'new', named: true },
      { word: 'york', named: true },
      { word: '2024', named: true },
    ])
  })
})

describe('the relevance bar', () => {
  const pool = [
    'Steamer ducks cannot fly.',
    'Business class is allowed on long flights.',
    'Economy class is the rule.',
    'Ducks swim in the bay.',
  ].map(words)
  const score = scorer('Can I fly business class?', pool)

  it('needs two of the question terms, and a share of its weight', () => {
    expect(clearsBar(score, pool[0]!)).toBe(false)
    expect(clearsBar(score, pool[1]!)).toBe(true)
    expect(score.coverage(pool[1]!)).toBeGreaterThan(score.coverage(pool[2]!))
  })

  it('lets a one-word question be answered by one matching word', () => {
    const one = scorer('ducks', pool)
    expect(clearsBar(one, pool[3]!)).toBe(true)
    expect(clearsBar(one, pool[1]!)).toBe(false)
  })
})

describe('terms the pool lacks', () => {
  const pool = ['We anchored near the estuary.', 'Hotels in New York cost 300 dollars.'].map(words)

  it('drops a common word no sentence holds', () => {
    const score = scorer('What happened at the estuary?', pool)
    expect(score.size).toBe(1)
    expect(clearsBar(score, pool[0]!)).toBe(true)
  })

  it('keeps a name no sentence holds: a sentence about another place covers less', () => {
    const tokyo = scorer('What do hotels cost in Tokyo?', pool)
    const york = scorer('What do hotels cost in York?', pool)
    expect(tokyo.size).toBe(3)
    expect(tokyo.coverage(pool[1]!)).toBeLessThan(0.5)
    expect(york.coverage(pool[1]!)).toBe(1)
  })
})

describe('a long question', () => {
  // A question that defines its measure and adds instructions: over twenty terms, so that a
  // table row naming five of them holds far less than a fifth of the question's weight.
  const question =
    'What is the 2019 cash conversion cycle for Acme? It is defined as inventory days plus ' +
    'receivable days minus payable days, each from the average balance between 2018 and 2019 ' +
    'over revenue or cost of goods sold. Round your answer to two decimal places and explain ' +
    'every step of the calculation using the balance sheet and the income statement.'
  // Passages of a filing hold the question's other terms here and there, as they do.
  const pool = [
    'Inventories, receivables and payables at the 2019 balance date.',
    'Inventories and receivables at the 2019 balance date.',
    'The river floods every spring.',
    'Cash flows from operating activities over the cycle.',
    'Revenue, cost of goods sold and income for 2018 and 2019.',
    'Amounts are rounded to two decimal places; see the statement of income.',
    'Days sales outstanding and days payable are defined in the glossary.',
  ].map(words)
  const score = scorer(question, pool)

  it('lets a sentence sharing five of its terms clear the bar, though below its share', () => {
    expect(score.size).toBeGreaterThan(20)
    expect(score.matched(pool[0]!)).toBe(MANY_TERMS)
    expect(score.coverage(pool[0]!)).toBeLessThan(RELEVANCE_BAR)
    expect(clearsBar(score, pool[0]!)).toBe(true)
  })

  it('keeps out a sentence sharing fewer of them', () => {
    expect(score.matched(pool[1]!)).toBe(4)
    expect(clearsBar(score, pool[1]!)).toBe(false)
    expect(clearsBar(score, pool[2]!)).toBe(false)
  })
})
