import { countWordTokens } from './tokens.ts'

/** A word (or a piece of an over-long one) of the text: [start, end), its tokens, what follows. */
export interface Atom {
  start: number
  end: number
  /** Tokens as the budget counts them: a table row's syntax none, each word after one space. */
  tokens: number
  /** Tokens of the text itself, the whitespace before it included. */
  rawTokens: number
  /** How good a place to end a chunk the end of this atom is. */
  breakAfter: Break
}

/**
 * Where a chunk may end, worst to best: between words, at a line end, at a sentence end, between
 * two rows of a table (a CSV record, a GFM table row), which is also a sentence end, and before
 * a GFM table with its title: a passage then holds a table's title, header and first rows
 * together, not the prose before it with a table's opening rows.
 */
export const Break = { word: 0, line: 1, sentence: 2, row: 3, table: 4 } as const
export type Break = (typeof Break)[keyof typeof Break]

// Words ending in a period that do not end a sentence.
const ABBREVIATION =
  /^(?:[\p{L}]\.){2,}$|^(?:mr|mrs|ms|dr|prof|st|jr|sr|inc|ltd|co|corp|no|vs|fig|etc|approx|dept|est|e\.g|i\.e)\.$/iu
const TERMINAL = /[.!?…。！？]["'”’)\]]*$/u
const BLOCK_START = /^(?:[-*+>|#]|\d+[.)])/
// A GFM table's delimiter row: it belongs with the header row above it.
const DELIMITER_ROW = /^\|[\s:|-]*-[\s:|-]*$/

/**
 * Cuts text[start, end) into word atoms. Each atom's token count includes the whitespace before
 * it, so a run's tokens are close to the sum of its atoms' (the chunker checks exactly).
 * Words above `maxAtomTokens` are split so any atom fits in a chunk. With `records`, every line
 * break ends a table row (CSV text: one record a line). A table's title is looked for no further
 * back than `titleFloor` of where the table starts.
 */
export function atomize(
  text: string,
  start: number,
  end: number,
  maxAtomTokens: number,
  records = false,
  titleFloor: (tableStart: number) => number = () => start,
): Atom[] {
  const atoms: Atom[] = []
  const word = /\S+/g
  word.lastIndex = start
  let previousEnd = start
  for (let match = word.exec(text); match && match.index < end; match = word.exec(text)) {
    const wordEnd = Math.min(match.index + match[0].length, end)
    const tokens = countWordTokens(text.slice(previousEnd, wordEnd))
    if (tokens <= maxAtomTokens)
      atoms.push({
        start: match.index,
        end: wordEnd,
        tokens,
        rawTokens: tokens,
        breakAfter: Break.word,
      })
    else {
      const pieces = splitWord(text, match.index, wordEnd, maxAtomTokens)
      // A long run of whitespace before the word still counts, or the chunker's estimate of a
      // run of atoms falls far below its exact count.
      pieces[0]!.tokens += countWordTokens(text.slice(previousEnd, match.index))
      pieces[0]!.rawTokens = pieces[0]!.tokens
      atoms.push(...pieces)
    }
    previousEnd = wordEnd
  }
  // Whether the current line is a table row: a sentence end inside one is no place to cut.
  let inRow = records || text[start] === '|'
  // Whether it is a GFM table row, whose pipes, delimiter row and padding are layout: the
  // budget counts a table by its cells' words, as the same table would be as prose.
  let inTable = text[start] === '|'
  for (let i = 0; i < atoms.length; i++) {
    if (inTable) atoms[i]!.tokens = cellTokens(text.slice(atoms[i]!.start, atoms[i]!.end))
    const next = atoms[i + 1]
    if (!next) break
    const gap = text.slice(atoms[i]!.end, next.start)
    const breakAfter = breakBetween(text, atoms[i]!, next, records)
    atoms[i]!.breakAfter = inRow && !gap.includes('\n') ? Break.word : breakAfter
    if (gap.includes('\n')) {
      if (!inTable && text[next.start] === '|') {
        markTableStart(text, atoms, i, titleFloor(next.start))
      }
      inRow = records || text[next.start] === '|'
      inTable = text[next.start] === '|'
    }
  }
  return atoms
}

// Up to this many short lines right above a table are its title: "AMAZON.COM, INC.",
// "Consolidated Balance Sheets", "(dollars in millions)", "Year Ended December 31,".
const TITLE_LINES = 4
const MAX_TITLE_LINE = 120
const SENTENCE_END = /[.!?]["'”’\]]*$/u

/**
 * Marks the best place to end a chunk before the table that starts after atoms[last]: above
 * its title lines (short lines, no sentence's end, a blank line or prose above them), else
 * right before the table.
 */
function markTableStart(text: string, atoms: Atom[], last: number, floor: number) {
  const titleStart = tableTitleStart(text, atoms[last]!.end, floor)
  let end = last
  while (end >= 0 && atoms[end]!.start >= titleStart) end--
  if (end >= 0) atoms[end]!.breakAfter = Break.table
}

/**
 * Where the title lines of a table ending its text before `before` start (short lines, no
 * sentence's end, a blank line or prose above them); `before` itself when it has none. Looks
 * no further back than `floor`.
 */
export function tableTitleStart(text: string, before: number, floor: number): number {
  let titleStart = before
  let cursor = titleStart
  for (let lines = 0; lines < TITLE_LINES && cursor > floor;) {
    const lineStart = Math.max(floor, text.lastIndexOf('\n', cursor - 1) + 1)
    const line = text.slice(lineStart, cursor).trim()
    cursor = lineStart - 1
    if (!line) {
      if (lines > 0) break
      continue
    }
    if (line.length > MAX_TITLE_LINE || line.startsWith('|') || SENTENCE_END.test(line)) break
    titleStart = lineStart
    lines++
  }
  return titleStart
}

/** A table row's word as the budget counts it: syntax (pipes, `---`) none, padding none. */
const cellTokens = (word: string) => (TABLE_SYNTAX.test(word) ? 0 : countWordTokens(` ${word}`))
const TABLE_SYNTAX = /^[|:-]+$/

/**
 * Between table rows is a row break (but not on either side of a delimiter row); a
 * paragraph, list item or table start, or a sentence's end is a sentence break.
 */
function breakBetween(text: string, atom: Atom, next: Atom, records: boolean): Break {
  const gap = text.slice(atom.end, next.start)
  const word = text.slice(atom.start, atom.end)
  const nextWord = text.slice(next.start, next.end)
  if (gap.includes('\n') && records) return Break.row
  if (gap.includes('\n') && word.endsWith('|') && nextWord.startsWith('|')) {
    // The delimiter row binds the header to the body: a passage should not end at either side.
    const line = lineAt(text, text.lastIndexOf('\n', atom.start - 1) + 1)
    const delimiter = DELIMITER_ROW.test(line) || DELIMITER_ROW.test(lineAt(text, next.start))
    return delimiter ? Break.line : Break.row
  }
  if (gap.includes('\n\n')) return Break.sentence
  if (gap.includes('\n') && BLOCK_START.test(nextWord)) return Break.sentence
  const sentence =
    TERMINAL.test(word) && !ABBREVIATION.test(word) && /^["'“‘([]?[\p{Lu}\p{N}]/u.test(nextWord)
  if (sentence) return Break.sentence
  return gap.includes('\n') ? Break.line : Break.word
}

/** The line that starts at `at`, without its line break. */
export function lineAt(text: string, at: number): string {
  const lineEnd = text.indexOf('\n', at)
  return text.slice(at, lineEnd < 0 ? text.length : lineEnd).trimEnd()
}

// Longer words are cut in slices of this length first: halving a 2 MB word would count all its
// tokens again at every level.
const SLICE = 1024

/** Splits a word (at code-point boundaries) into pieces within the token limit. */
function splitWord(text: string, start: number, end: number, maxTokens: number): Atom[] {
  const atoms: Atom[] = []
  for (let from = start; from < end;) {
    let to = Math.min(from + SLICE, end)
    if (/[\udc00-\udfff]/.test(text[to] ?? '')) to++
    atoms.push(...halve(text, from, to, maxTokens))
    from = to
  }
  return atoms
}

/** Halves a word (at code-point boundaries) until every piece is within the token limit. */
function halve(text: string, start: number, end: number, maxTokens: number): Atom[] {
  const tokens = countWordTokens(text.slice(start, end))
  if (tokens <= maxTokens || end - start <= 1)
    return [{ start, end, tokens, rawTokens: tokens, breakAfter: Break.word }]
  let middle = start + Math.floor((end - start) / 2)
  if (/[\udc00-\udfff]/.test(text[middle]!)) middle++
  return [...halve(text, start, middle, maxTokens), ...halve(text, middle, end, maxTokens)]
}
