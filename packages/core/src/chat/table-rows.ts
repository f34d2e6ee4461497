import { isTableRow } from './passage-shape.ts'
import type { Sentence } from './sentences.ts'

/** A sentence, and for a Markdown table's row the text that says what its cells are. */
export type ReadSentence = { sentence: Sentence; context: string }

// A GFM delimiter row (`| --- | :---: |`): layout, not a sentence.
const DELIMITER_ROW = /^\|[\s:|-]*-[\s:|-]*\|?$/
const isMarkdownRow = (text: string) => text.startsWith('|') && isTableRow(text)
// Up to this many short lines right above a table are its title ("AMAZON.COM, INC.",
// "Consolidated Balance Sheets", "(in millions)"), as the chunker takes them.
const TITLE_LINES = 4
const MAX_TITLE_LINE = 120

/**
 * The table a passage opens inside of, from its heading path: the chunker ends the path with
 * the table's header row, after its title lines (or the section's heading) when it has any.
 */
function tableAbove(headingPath: readonly string[]): string {
  const header = headingPath.at(-1) ?? ''
  if (!isMarkdownRow(header)) return ''
  return headingPath.slice(-2).join('\n')
}

/** The title of a table: the last short lines of the sentence before it. */
function titleOf(before: string): string {
  const title: string[] = []
  for (const line of before.split('\n').reverse()) {
    if (title.length === TITLE_LINES || line.length > MAX_TITLE_LINE) break
    title.unshift(line)
  }
  return title.join('\n')
}

/**
 * A passage's sentences as a reader takes them: delimiter rows dropped, and each body row of
 * a Markdown table read with its header row (the years above a figure) and the table's title
 * lines just above it, as one unit — the question's words sit across these (the measure in
 * the row's label, the year in the header), so a row alone never matches them all. After its
 * last row, the table comes once more as a whole (see wholeTable).
 */
export function readTableRows(
  sentences: Sentence[],
  headingPath: readonly string[] = [],
): ReadSentence[] {
  const read: ReadSentence[] = []
  let context = ''
  for (const [i, sentence] of sentences.entries()) {
    if (DELIMITER_ROW.test(sentence.text)) continue
    if (!isMarkdownRow(sentence.text)) {
      read.push({ sentence, context: '' })
      continue
    }
    const startsTable = !isMarkdownRow(sentences[i - 1]?.text ?? '')
    if (startsTable) {
      // A header row is the one above a delimiter row; a passage that starts inside a table
      // has none, and its first row is only a row.
      const header = DELIMITER_ROW.test(sentences[i + 1]?.text ?? '') ? sentence.text : ''
      const title = titleOf(sentences[i - 1]?.text ?? '')
      context = [title, header].filter(Boolean).join('\n')
      // A passage that opens inside a table has the table's title and header row above it
      // only in its heading path, as the chunker writes it.
      if (i === 0 && !header) context = tableAbove(headingPath)
      if (header) {
        read.push({ sentence, context: title })
        continue
      }
    }
    read.push({ sentence, context })
    if (!isMarkdownRow(sentences[i + 1]?.text ?? '')) read.push(wholeTable(sentences, i, context))
  }
  return read
}

/**
 * The Markdown table ending at sentence `last`, header row included, as one unit read with its
 * title: a question often asks for several of its rows at once (three balance-sheet lines for a
 * ratio, two settings of one device), and only the whole table holds all their labels.
 */
function wholeTable(sentences: Sentence[], last: number, context: string): ReadSentence {
  let first = last
  while (first > 0 && isMarkdownRow(sentences[first - 1]!.text)) first--
  const rows = sentences.slice(first, last + 1).filter((s) => !DELIMITER_ROW.test(s.text))
  // The header row is among the rows, unless it came from the heading path.
  const title = context.split('\n').filter((line) => !rows.some((row) => row.text === line))
  return {
    sentence: {
      text: rows.map((s) => s.text).join('\n'),
      start: sentences[first]!.start,
      end: sentences[last]!.end,
    },
    context: title.join('\n'),
  }
}
