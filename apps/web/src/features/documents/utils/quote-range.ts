import type { Passage } from '../api/get-chunk'

/** Between the sentences of a quote joined from several places in a passage. */
const GAP = ' … '

/**
 * Where a quote lies in its passage, as offsets into the passage's content: from its place in
 * the document (`cited`, document offsets) when both have one, else by finding its text. Null
 * when neither works (the passage changed since): nothing is marked then.
 */
export function quoteRange(
  passage: Pick<Passage, 'content' | 'char_start'>,
  cited: { start: number; end: number } | null,
  quote: string | null,
): { start: number; end: number } | null {
  const { content } = passage
  if (cited && passage.char_start !== null) {
    const start = cited.start - passage.char_start
    const end = cited.end - passage.char_start
    if (start >= 0 && end > start && end <= content.length) return { start, end }
  }
  if (!quote) return null
  const pieces = quote.split(GAP)
  const start = content.indexOf(pieces[0]!)
  if (start < 0) return null
  const last = pieces.at(-1)!
  const lastAt = content.indexOf(last, start)
  return { start, end: lastAt < 0 ? start + pieces[0]!.length : lastAt + last.length }
}
