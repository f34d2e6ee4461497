// Generated from packages/core/src/chat/sentences.ts by `npm run sync:core`: edit that file, not this one.
export type Sentence = { text: string; start: number; end: number }

// Words after which a full stop rarely ends a sentence.
const abbreviations = new Set(
  `al approx ca cf co corp dept dr e.g eg etc fig figs i.e ie inc jr ltd mr mrs ms no nos p pp
  prof resp sr st vs vol`.split(/\s+/),
)

// A candidate end: terminal punctuation, closing quotes or brackets, then space and a start
// that is not lower case; or a blank line (between paragraphs, and between CSV records); or a
// line break before a list item, a heading or a table row (so two rows are never one sentence).
const boundary =
  /([.!?]+)(["'”’)\]]*)(\s+)(?=[^\s\p{Ll}])|\n[ \t]*\n\s*|\n(?=[ \t]*(?:(?:[-*+•]|\d+[.)]|#{1,6})\s|\|))/gu

/** Whether the full stop at `dot` follows an abbreviation, an initial or a bare number. */
function isAbbreviation(text: string, dot: number): boolean {
  const before = /([\p{L}.]+)$/u.exec(text.slice(Math.max(0, dot - 12), dot))?.[1] ?? ''
  const word = before.toLowerCase()
  if (abbreviations.has(word)) return true
  // "J. Smith", "U.S." — one letter, or letters separated by dots.
  return /^\p{Lu}$/u.test(before) || /^(?:\p{L}\.)+\p{L}$/u.test(before)
}

// A CSV record as the extractor writes it, one line: "col: value; col2: value".
const record = /^[^\n:;]{1,80}: [^\n]*?; [^\n:;]{1,80}: [^\n]*$/gm

/** [start, end) of each record line: one sentence each, whatever punctuation its values hold. */
function recordLines(text: string): [number, number][] {
  return [...text.matchAll(record)].map((match) => [match.index, match.index + match[0].length])
}

/**
 * The sentences of a text with their offsets: `text.slice(start, end) === sentence.text`,
 * trimmed of surrounding space. Abbreviations, initials and decimals do not end a sentence;
 * nor does a full stop inside a CSV record line, so a sentence never holds half a record.
 */
export function splitSentences(text: string): Sentence[] {
  const sentences: Sentence[] = []
  const records = text.includes('; ') ? recordLines(text) : []
  const inRecord = (at: number) => records.some(([start, end]) => start <= at && at < end)
  let from = 0
  const push = (end: number) => {
    const raw = text.slice(from, end)
    const lead = raw.length - raw.trimStart().length
    const trimmed = raw.trim()
    if (trimmed)
      sentences.push({ text: trimmed, start: from + lead, end: from + lead + trimmed.length })
  }
  for (const match of text.matchAll(boundary)) {
    const [whole, punctuation, closers = '', space] = match
    if (punctuation === '.' && isAbbreviation(text, match.index)) continue
    if (punctuation && inRecord(match.index)) continue
    const end = punctuation ? match.index + punctuation.length + closers.length : match.index
    push(end)
    from = punctuation ? end + space!.length : match.index + whole.length
  }
  push(text.length)
  return sentences
}
