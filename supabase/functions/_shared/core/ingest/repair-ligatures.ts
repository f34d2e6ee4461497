// Generated from packages/core/src/ingest/repair-ligatures.ts by `npm run sync:core`: edit that file, not this one.
import { stem } from '../chat/stem.ts'
import type { PageRange } from '../extract/types.ts'

/**
 * Ligatures that fonts draw as one glyph. Some PDFs map such a glyph to nothing useful in their
 * ToUnicode table: U+0000 (the AmEx 10-K's Calibri maps its ft, ti and tt glyphs so) or U+FFFD,
 * which leaves no hint of the letters in the file.
 */
const LIGATURES = 'ti tt ft fi fl ff ffi ffl fft tti fj st ct th'.split(' ')

/** What a lost glyph comes out as. */
const LOST = /[\0\uFFFD]/
const LETTER = /\p{L}/u

// Prefixes a word may carry that its family elsewhere in the document lacks ("reelection",
// "election"), longest first.
const PREFIXES = ['inter', 'under', 'over', 'non', 'pre', 'mis', 'dis', 'sub', 'un', 're', 'co']

/** The document's words (lower case) with their counts, and its words by Porter stem. */
type Vocabulary = { words: Map<string, number>; families: Map<string, string[]> }

/**
 * Puts the letters back where a ligature glyph came out as NUL or U+FFFD, using the document
 * itself as the dictionary. Of every way of reading the lost glyphs as ligatures, the one
 * written out most often elsewhere in the text wins ("effec\0ve" → "effective"); else the one
 * closest to a word of its family, the words of the same Porter stem ("mee\0ngs" → "meetings",
 * which shares seven letters with "meeting", where "meettings" shares four); else the same
 * once a common prefix is set aside ("reelec\0on" → "reelection" beside "elections"). At each
 * step only a clear winner counts: two spellings the document supports as well as each other
 * leave the glyph lost, as does a word no spelling of which the document knows. Page ranges
 * move with the text.
 */
export function repairLigatures(
  text: string,
  pages: PageRange[],
): { text: string; pages: PageRange[] } {
  if (!LOST.test(text)) return { text, pages }
  const vocabulary = vocabularyOf(text)
  // Each repair, in text order: where it starts in the original text and how much it adds.
  const shifts: { at: number; added: number }[] = []
  let repaired = ''
  let copied = 0
  for (const { start, end } of damagedWords(text)) {
    const word = text.slice(start, end)
    const best = bestSpelling(spellings(word), vocabulary)
    if (best === undefined) continue
    repaired += text.slice(copied, start) + best
    copied = end
    shifts.push({ at: start, added: best.length - word.length })
  }
  repaired += text.slice(copied)
  const moved = (offset: number) => {
    let added = 0
    for (const shift of shifts) {
      if (shift.at >= offset) break
      added += shift.added
    }
    return offset + added
  }
  return {
    text: repaired,
    pages: pages.map((page) => ({ ...page, start: moved(page.start), end: moved(page.end) })),
  }
}

function vocabularyOf(text: string): Vocabulary {
  const words = new Map<string, number>()
  for (const [word] of text.matchAll(/\p{L}+/gu)) {
    const key = word.toLowerCase()
    words.set(key, (words.get(key) ?? 0) + 1)
  }
  const families = new Map<string, string[]>()
  for (const word of words.keys()) {
    const key = stem(word)
    families.set(key, [...(families.get(key) ?? []), word])
  }
  return { words, families }
}

/** The spelling the document supports best, by the first test any spelling passes. */
function bestSpelling(candidates: string[], { words, families }: Vocabulary): string | undefined {
  // How near a word is to its family: the longest beginning it shares with one of them.
  const kinship = (word: string) =>
    Math.max(0, ...(families.get(stem(word)) ?? []).map((known) => sharedStart(word, known)))
  const tests: ((word: string) => number)[] = [
    (word) => words.get(word) ?? 0,
    kinship,
    (word) => {
      const prefix = PREFIXES.find((p) => word.startsWith(p) && word.length - p.length >= 4)
      return prefix ? kinship(word.slice(prefix.length)) : 0
    },
  ]
  const lower = candidates.map((c) => c.toLowerCase())
  for (const support of tests) {
    const scores = lower.map(support)
    const top = Math.max(...scores)
    if (top === 0) continue
    // A tie between two readings is a guess: leave the word as it is.
    return scores.filter((score) => score === top).length === 1
      ? candidates[scores.indexOf(top)]
      : undefined
  }
  return undefined
}

function sharedStart(a: string, b: string): number {
  let i = 0
  while (i < a.length && a[i] === b[i]) i++
  return i
}

/** Every way of reading the lost glyphs of `word` as ligatures, in the word's case. */
function spellings(word: string): string[] {
  const [head, ...rest] = word.split(LOST)
  const upper = word.length > 2 && word === word.toUpperCase()
  const ligatures = upper ? LIGATURES.map((l) => l.toUpperCase()) : LIGATURES
  let results = [head!]
  for (const part of rest) {
    results = results.flatMap((prefix) => ligatures.map((ligature) => prefix + ligature + part))
  }
  return results
}

/** Words with one or two lost glyphs among letters ("effec\0ve", "a\0er"), found from each. */
function* damagedWords(text: string): Generator<{ start: number; end: number }> {
  const anyLost = new RegExp(LOST.source, 'g')
  const next = (from: number) => {
    anyLost.lastIndex = from
    return anyLost.exec(text)?.index ?? -1
  }
  let lost = next(0)
  while (lost >= 0) {
    let start = lost
    while (start > 0 && LETTER.test(text[start - 1]!)) start--
    let end = lost + 1
    let count = 1
    while (end < text.length && (LETTER.test(text[end]!) || LOST.test(text[end]!))) {
      if (LOST.test(text[end]!)) count++
      end++
    }
    if (count <= 2 && end - start > count) yield { start, end }
    lost = next(end)
  }
}
