import { contentWords } from './words.ts'

/** A question's content words (stemmed), each once, and whether it names something. */
export type QueryTerm = { word: string; named: boolean }

/**
 * The question's terms. A word written with a capital inside the question, or holding a
 * digit (a year, a period, an amount), names the thing asked about: it weighs more, so
 * sentences about the asked company or year win over ones that share only common words.
 */
export function queryTerms(question: string): QueryTerm[] {
  const terms = new Map<string, boolean>()
  const tokens = question.match(/[\p{L}\p{N}]+(?:['’][\p{L}]+)?/gu) ?? []
  tokens.forEach((token, i) => {
    const named = /\d/.test(token) || (i > 0 && /^\p{Lu}/u.test(token))
    for (const word of contentWords(token)) terms.set(word, (terms.get(word) ?? false) || named)
  })
  return [...terms].map(([word, named]) => ({ word, named }))
}

// Chosen on SciFact's test claims (scripts/eval-extractive.ts): at 0.3 offline answers cited
// a rationale sentence for 53% of claims, at 0.2 for 60%. Short questions are kept off
// one-word matches ("Can I fly business class?") by the two-term rule of clearsBar.
/** The share of the question's weight a sentence must match to be worth quoting. */
export const RELEVANCE_BAR = 0.2
const NAMED_BOOST = 1.5

/** Scores sentences against the question: rarer terms in the pool weigh more. */
export type Scorer = {
  /** The share (0..1) of the question's weight that a sentence's words match. */
  coverage(words: Set<string>): number
  /** How many distinct question terms a sentence's words match. */
  matched(words: Set<string>): number
  /** The number of question terms that count. */
  size: number
}

/**
 * A scorer for the question over a pool of sentences (its statistics: document frequency).
 * A common word no sentence holds ("what *happened* at the estuary?") asks for nothing the
 * pool could say and is left out; a name or number no sentence holds still weighs against
 * every sentence, so sentences about another company or year cover less of the question.
 */
export function scorer(question: string, pool: Set<string>[]): Scorer {
  const weight = new Map<string, number>()
  for (const { word, named } of queryTerms(question)) {
    const df = pool.filter((words) => words.has(word)).length
    if (df === 0 && !named) continue
    const idf = Math.log(1 + pool.length / (df + 0.5))
    weight.set(word, idf * (named ? NAMED_BOOST : 1))
  }
  const terms = [...weight.keys()]
  const total = [...weight.values()].reduce((a, b) => a + b, 0)
  return {
    coverage(words) {
      if (total === 0) return 0
      let sum = 0
      for (const [word, w] of weight) if (words.has(word)) sum += w
      return sum / total
    },
    matched: (words) => terms.filter((t) => words.has(t)).length,
    size: terms.length,
  }
}

/**
 * A sentence sharing this many of the question's terms is no chance match, whatever their
 * share of its weight: a long question (one that defines what it asks, or adds instructions)
 * spreads its weight over twenty or thirty terms, so that no sentence matches RELEVANCE_BAR of
 * it and the answer was "nothing found" with the right table among the passages. A short
 * question is unaffected: five of its terms are a fifth of its weight and more.
 */
export const MANY_TERMS = 5

/**
 * Whether a sentence clears the bar: it matches RELEVANCE_BAR of the question's weight and,
 * for a question of two terms or more, at least two of them (one shared word is chance); or
 * it matches MANY_TERMS of them.
 */
export function clearsBar(score: Scorer, words: Set<string>): boolean {
  const matched = score.matched(words)
  if (matched >= MANY_TERMS) return true
  return score.coverage(words) >= RELEVANCE_BAR && matched >= Math.min(2, score.size)
}
