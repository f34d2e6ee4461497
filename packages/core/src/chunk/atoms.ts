import { countWordTokens } from './tokens.ts'

/** A word (or a piece of an over-long one) of the text: [start, end), its tokens, what follows. */
export interface Atom {
  start: number
  end: number
  tokens: number
  /** A chunk may end after this atom and still end on a sentence (or paragraph, list item…). */
  sentenceEnd: boolean
}

// Words ending in a period that do not end a sentence.
const ABBREVIATION =
  /^(?:[\p{L}]\.){2,}$|^(?:mr|mrs|ms|dr|prof|st|jr|sr|inc|ltd|co|corp|no|vs|fig|etc|approx|dept|est|e\.g|i\.e)\.$/iu
const TERMINAL = /[.!?…。！？]["'”’)\]]*$/u
const BLOCK_START = /^(?:[-*+>|#]|\d+[.)])/

/**
 * Cuts text[start, end) into word atoms. Each atom's token count includes the whitespace before
 * it, so a run's tokens are close to the sum of its atoms' (the chunker checks exactly).
 * Words above `maxAtomTokens` are split so any atom fits in a chunk.
 */
export function atomize(text: string, start: number, end: number, maxAtomTokens: number): Atom[] {
  const atoms: Atom[] = []
  const word = /\S+/g
  word.lastIndex = start
  let previousEnd = start
  for (let match = word.exec(text); match && match.index < end; match = word.exec(text)) {
    const wordEnd = Math.min(match.index + match[0].length, end)
    const tokens = countWordTokens(text.slice(previousEnd, wordEnd))
    if (tokens <= maxAtomTokens)
      atoms.push({ start: match.index, end: wordEnd, tokens, sentenceEnd: false })
    else atoms.push(...splitWord(text, match.index, wordEnd, maxAtomTokens))
    previousEnd = wordEnd
  }
  for (let i = 0; i < atoms.length; i++) {
    const next = atoms[i + 1]
    atoms[i]!.sentenceEnd = next !== undefined && endsSentence(text, atoms[i]!, next)
  }
  return atoms
}

function endsSentence(text: string, atom: Atom, next: Atom): boolean {
  const gap = text.slice(atom.end, next.start)
  if (gap.includes('\n\n')) return true
  const nextWord = text.slice(next.start, next.end)
  if (gap.includes('\n') && BLOCK_START.test(nextWord)) return true
  const word = text.slice(atom.start, atom.end)
  return (
    TERMINAL.test(word) && !ABBREVIATION.test(word) && /^["'“‘([]?[\p{Lu}\p{N}]/u.test(nextWord)
  )
}

/** Halves a word (at code-point boundaries) until every piece is within the token limit. */
function splitWord(text: string, start: number, end: number, maxTokens: number): Atom[] {
  const tokens = countWordTokens(text.slice(start, end))
  if (tokens <= maxTokens || end - start <= 1) return [{ start, end, tokens, sentenceEnd: false }]
  let middle = start + Math.floor((end - start) / 2)
  if (/[\udc00-\udfff]/.test(text[middle]!)) middle++
  return [...splitWord(text, start, middle, maxTokens), ...splitWord(text, middle, end, maxTokens)]
}
