import type { PageRange } from '../extract/types.ts'

/**
 * Ligatures that fonts draw as one glyph. Some PDFs map such a glyph to U+0000 in their
 * ToUnicode table (the AmEx 10-K's Calibri maps its ft, ti and tt glyphs so), which leaves
 * no hint of the letters in the file.
 */
const LIGATURES = ['ti', 'tt', 'ft', 'fi', 'fl', 'ff', 'ffi', 'ffl', 'fft', 'tti', 'fj']

const LETTER = /\p{L}/u

/**
 * Puts the letters back where a ligature glyph came out as NUL, using the document itself as
 * the dictionary: the candidate spelling that occurs most often elsewhere in the text wins
 * ("effec\0ve" → "effective" because "effective" is written out on other pages). A word
 * whose every spelling is unknown keeps its NUL. Page ranges move with the text.
 */
export function repairLigatures(
  text: string,
  pages: PageRange[],
): { text: string; pages: PageRange[] } {
  if (!text.includes('\0')) return { text, pages }
  const known = new Map<string, number>()
  for (const [word] of text.matchAll(/\p{L}+/gu)) {
    const key = word.toLowerCase()
    known.set(key, (known.get(key) ?? 0) + 1)
  }
  // Each repair, in text order: where it starts in the original text and how much it adds.
  const shifts: { at: number; added: number }[] = []
  let repaired = ''
  let copied = 0
  for (const { start, end } of damagedWords(text)) {
    const word = text.slice(start, end)
    let best = word
    let bestCount = 0
    for (const spelling of spellings(word)) {
      const count = known.get(spelling.toLowerCase()) ?? 0
      if (count > bestCount) [best, bestCount] = [spelling, count]
    }
    if (best === word) continue
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

/** Every way of reading the NULs of `word` as ligatures. */
function spellings(word: string): string[] {
  const [head, ...rest] = word.split('\0')
  let results = [head!]
  for (const part of rest) {
    results = results.flatMap((prefix) => LIGATURES.map((ligature) => prefix + ligature + part))
  }
  return results
}

/** Words with one or two NULs among letters ("effec\0ve", "a\0er"), found from each NUL. */
function* damagedWords(text: string): Generator<{ start: number; end: number }> {
  let nul = text.indexOf('\0')
  while (nul >= 0) {
    let start = nul
    while (start > 0 && LETTER.test(text[start - 1]!)) start--
    let end = nul + 1
    let nuls = 1
    while (end < text.length && (LETTER.test(text[end]!) || text[end] === '\0')) {
      if (text[end] === '\0') nuls++
      end++
    }
    if (nuls <= 2 && end - start > nuls) yield { start, end }
    nul = text.indexOf('\0', end)
  }
}
