import { type Sentence, splitSentences } from './sentences.ts'
import { isPointer } from './show-passage.ts'
import type { Citation, Source } from './types.ts'
import { contentWords } from './words.ts'

// [1], [2, 3] or [1][4]; the numbers of one bracket are separated by commas.
const marker = /\[(\d{1,3}(?:\s*,\s*\d{1,3})*)\]/g

/** The numbers an answer cites, once each, in order of first appearance. */
export function parseCitations(answer: string): number[] {
  const seen = new Set<number>()
  for (const [, list] of answer.matchAll(marker))
    for (const n of list!.split(',')) seen.add(Number(n))
  return [...seen]
}

/** A citation is supported when its passage holds this share of the sentence's words. */
export const SUPPORT_THRESHOLD = 0.5

/** The share of a sentence's distinct content words that occur in the passage. */
export function overlap(sentenceWords: Set<string>, passageWords: Set<string>): number {
  if (sentenceWords.size === 0) return 0
  let shared = 0
  for (const w of sentenceWords) if (passageWords.has(w)) shared++
  return shared / sentenceWords.size
}

type Claim = { text: string; words: Set<string>; cites: number[] }

/**
 * The answer's sentences with the numbers each cites. Markers that open a sentence
 * ("… done. [2] Next") belong to the sentence before.
 */
function claims(answer: string): Claim[] {
  const result: Claim[] = []
  for (const sentence of splitSentences(answer)) {
    const leading = /^(?:\s*\[[\d,\s]+\])+/.exec(sentence.text)?.[0] ?? ''
    const previous = result.at(-1)
    if (leading && previous) previous.cites.push(...parseCitations(leading))
    const text = previous ? sentence.text.slice(leading.length) : sentence.text
    // A pointer ("show passage [2]") claims nothing: there is nothing to check.
    const words = isPointer(text.trim())
      ? new Set<string>()
      : new Set(contentWords(text.replace(marker, ' ')))
    result.push({ text: text.trim(), words, cites: parseCitations(text) })
  }
  return result
}

/** A sentence whose cited passage the lexical check found wanting: a judge may overrule. */
export type Doubt = { n: number; sentence: string; passage: string }

type Cited = {
  source: Source
  sentences: Sentence[]
  verdicts: (boolean | null)[]
  best: Set<number>
}

/**
 * Checks every [n] of an answer against the sources: numbers without a source are listed
 * in `invalid`; each cited source becomes one Citation whose quote is the passage sentence
 * closest to each sentence citing it, and whose `supported` is false when any citing
 * sentence is not covered by the passage (SUPPORT_THRESHOLD of its content words; a
 * sentence citing several passages needs half of that from each and the threshold from all).
 * Each failing (sentence, source) pair is listed in `doubts`.
 */
export function checkCitations(
  answer: string,
  sources: Source[],
): { citations: Citation[]; invalid: number[]; doubts: Doubt[] } {
  const byNumber = new Map(sources.map((s) => [s.n, s]))
  const cited = new Map<number, Cited>()
  const invalid = new Set<number>()
  const doubts: Doubt[] = []
  const passageWords = new Map<number, Set<string>>()
  const wordsOf = (n: number) => {
    if (!passageWords.has(n)) passageWords.set(n, new Set(contentWords(byNumber.get(n)!.content)))
    return passageWords.get(n)!
  }

  for (const claim of claims(answer)) {
    const valid = [...new Set(claim.cites)].filter((n) => byNumber.has(n))
    for (const n of claim.cites) if (!byNumber.has(n)) invalid.add(n)
    const together = new Set(valid.flatMap((n) => [...wordsOf(n)]))
    const enough = overlap(claim.words, together) >= SUPPORT_THRESHOLD
    for (const n of valid) {
      const source = byNumber.get(n)!
      const entry = cited.get(n) ?? {
        source,
        sentences: splitSentences(source.content),
        verdicts: [],
        best: new Set(),
      }
      cited.set(n, entry)
      const own = overlap(claim.words, wordsOf(n))
      const share = valid.length > 1 ? SUPPORT_THRESHOLD / 2 : SUPPORT_THRESHOLD
      const verdict = claim.words.size === 0 ? null : enough && own >= share
      entry.verdicts.push(verdict)
      if (verdict === false) doubts.push({ n, sentence: claim.text, passage: source.content })
      entry.best.add(closestSentence(claim.words, entry.sentences))
    }
  }
  return { citations: [...cited.values()].map(toCitation), invalid: [...invalid], doubts }
}

/** The index of the passage sentence sharing the most of the claim's words (0 on a tie). */
function closestSentence(words: Set<string>, sentences: Sentence[]): number {
  let best = 0
  let bestScore = -1
  sentences.forEach((sentence, i) => {
    const score = overlap(words, new Set(contentWords(sentence.text)))
    if (score > bestScore) [best, bestScore] = [i, score]
  })
  return best
}

function toCitation({ source, sentences, verdicts, best }: Cited): Citation {
  const { content: _content, heading_path: _headingPath, ...identity } = source
  const picked = [...best].sort((a, b) => a - b).map((i) => sentences[i]!)
  const known = verdicts.filter((v) => v !== null)
  const supported = known.length === 0 ? null : known.every(Boolean)
  if (picked.length === 0) return { ...identity, quote: source.content, supported }
  const offset = source.char_start
  return {
    ...identity,
    char_start: offset === null ? null : offset + picked[0]!.start,
    char_end: offset === null ? null : offset + picked.at(-1)!.end,
    quote: picked.map((s) => s.text).join(' … '),
    supported,
  }
}
