// Generated from packages/core/src/chunk/chunk-document.ts by `npm run sync:core`: edit that file, not this one.
import type { DocumentFormat, ExtractedDocument, PageRange } from '../extract/types.ts'
import { atomize, Break, lineAt, tableTitleStart, type Atom } from './atoms.ts'
import { splitSections, type Section } from './sections.ts'
import { countTokens } from './tokens.ts'

/**
 * A passage of the document. `content` is exactly `text.slice(charStart, charEnd)` of the
 * extracted text, since citations and highlights are offsets into it: the heading path is kept
 * apart, for callers that want to prefix it when embedding. A chunk that starts inside a
 * Markdown table below its header row has that header row (`| a | b |`) as the last entry of
 * its heading path, after the table's title lines (as one entry) when it has any, so every
 * chunk of a long table still says what it is and what its columns are (and is indexed with
 * them: chunk_index_text). Pages are those of its first and last characters.
 */
export interface Chunk {
  ordinal: number
  content: string
  headingPath: string[]
  pageStart: number
  pageEnd: number
  charStart: number
  charEnd: number
  /**
   * Tokens of `content`: exact for text without a table; for a passage holding a table's
   * syntax (up to twice `maxTokens`) the sum of its words' counts, at most a token a row over.
   */
  tokenCount: number
}

export interface ChunkOptions {
  maxTokens?: number
  overlapTokens?: number
}

const STRUCTURED = new Set<DocumentFormat>(['markdown', 'docx', 'html', 'pptx', 'xlsx'])

/** A chunk ends at the last sentence (or line) end that fills at least this share of the budget. */
const MIN_FILL = 0.5
/**
 * A chunk's exact size (a table's syntax included) stays within this many times the budget:
 * a table of empty cells is nearly all syntax, and would otherwise make one huge chunk.
 */
const MAX_RAW = 2

/**
 * Splits a document into token-bounded chunks that never cross a heading, end between
 * sentences where possible (else at a line end, else between words), and repeat up to
 * `overlapTokens` of the previous chunk's end (from a sentence start when one fits). A
 * Markdown table counts by its cells' words: its pipes, delimiter row and padding are layout,
 * and counted would leave a table's chunk a quarter fewer words than the same table as prose.
 */
export function chunkDocument(
  { text, pages, format }: Pick<ExtractedDocument, 'text' | 'pages'> & Partial<ExtractedDocument>,
  { maxTokens = 400, overlapTokens = 60 }: ChunkOptions = {},
): Chunk[] {
  if (!(maxTokens >= 8) || !(overlapTokens >= 0) || overlapTokens > maxTokens / 2) {
    throw new RangeError(
      'chunkDocument needs maxTokens >= 8 and 0 <= overlapTokens <= maxTokens / 2',
    )
  }
  const chunks: Chunk[] = []
  // Only Markdown-producing formats have headings; a PDF line may well start with "# of shares".
  const structured = format === undefined || STRUCTURED.has(format)
  const sections =
    format === 'pptx'
      ? slideSections(text, pages)
      : structured
        ? splitSections(text)
        : [{ start: 0, end: text.length, headingPath: [] }]
  for (const section of sections) {
    const records = format === 'csv'
    // A PDF table's title is on its page: the lines that end the page before (its footer, a
    // footnote's marks) are not.
    const titleFloor = (at: number) =>
      format === 'pdf' ? Math.max(section.start, pageRangeAt(pages, at)?.start ?? 0) : section.start
    const atoms = atomize(
      text,
      section.start,
      section.end,
      Math.floor(maxTokens / 4),
      records,
      titleFloor,
    )
    for (const [first, last, tokenCount] of spans(text, atoms, maxTokens, overlapTokens)) {
      const charStart = atoms[first]!.start
      const charEnd = atoms[last]!.end
      const content = text.slice(charStart, charEnd)
      // PDF tables are rebuilt as GFM tables too (extract/pdf-tables.ts).
      const table =
        structured || format === 'pdf' ? tableAbove(text, charStart, section.start, titleFloor) : []
      chunks.push({
        ordinal: chunks.length,
        content,
        headingPath: [...section.headingPath, ...table],
        pageStart: pageAt(pages, charStart),
        pageEnd: pageAt(pages, charEnd - 1),
        charStart,
        charEnd,
        tokenCount,
      })
    }
  }
  return chunks
}

/**
 * A presentation's sections slide by slide, so no passage spans two slides and each keeps its
 * slide's number (a slide's title is a heading only within its own slide).
 */
function slideSections(text: string, pages: PageRange[]): Section[] {
  return pages.flatMap((page) =>
    splitSections(text.slice(page.start, page.end)).map((section) => ({
      ...section,
      start: section.start + page.start,
      end: section.end + page.start,
    })),
  )
}

/**
 * [first, last] atom indexes and token count of each chunk of one section, within
 * `maxTokens` as the budget counts them (a table by its cells' words, see atoms.ts).
 */
function* spans(text: string, atoms: Atom[], maxTokens: number, overlap: number) {
  // prefix[k] = tokens of atoms[0..k), so any run's (estimated) size is one subtraction.
  // tablePrefix[k] = atoms in atoms[0..k) counted apart from their text (a table's).
  const prefix = [0]
  const rawPrefix = [0]
  const tablePrefix = [0]
  for (const atom of atoms) {
    prefix.push(prefix[prefix.length - 1]! + atom.tokens)
    rawPrefix.push(rawPrefix[rawPrefix.length - 1]! + atom.rawTokens)
    tablePrefix.push(
      tablePrefix[tablePrefix.length - 1]! + (atom.tokens === atom.rawTokens ? 0 : 1),
    )
  }
  const tokensOf = (from: number, to: number) => prefix[to]! - prefix[from]!
  const fits = (from: number, to: number) =>
    tokensOf(from, to) <= maxTokens && rawPrefix[to]! - rawPrefix[from]! <= maxTokens * MAX_RAW
  let from = 0
  while (from < atoms.length) {
    let to = from + 1
    while (to < atoms.length && fits(from, to + 1)) to++
    if (to < atoms.length)
      to = bestEnd(atoms, from, to, (b) => tokensOf(from, b) >= maxTokens * MIN_FILL)
    // Prose's estimate can be off by a token or two at the edges: trim until the exact count
    // fits. A passage with a table keeps its estimates, which cannot fall below the exact
    // counts: the pre-tokenizer only ever splits at a word's leading whitespace, so its
    // words' counts add up, but for a piece that spans two of them ("|\n" ends a row),
    // one token fewer. Counting such text exactly (raw and as the budget counts it) cost
    // a fifth more CPU on financial filings, to move a passage's end by a row now and then.
    let tokens = 0
    const fitsExactly = (end: number) => {
      if (tablePrefix[end] !== tablePrefix[from]) {
        tokens = rawPrefix[end]! - rawPrefix[from]!
        return true
      }
      tokens = countTokens(text.slice(atoms[from]!.start, atoms[end - 1]!.end))
      return tokens <= maxTokens
    }
    while (!fitsExactly(to) && to - from > 1) to--
    yield [from, to - 1, tokens] as const
    if (to >= atoms.length) return
    from = nextStart(atoms, from, to, overlap, tokensOf, maxTokens)
  }
}

/**
 * The last table start (before its title) before `to` that still fills enough, else the last
 * row end, else the last sentence end, else the last line end, else `to`: a table is cut
 * between rows, never inside a record.
 */
function bestEnd(atoms: Atom[], from: number, to: number, fillsEnough: (end: number) => boolean) {
  for (const wanted of [Break.table, Break.row, Break.sentence, Break.line]) {
    for (let end = to; end > from + 1 && fillsEnough(end); end--) {
      if (atoms[end - 1]!.breakAfter >= wanted) return end
    }
  }
  return to
}

/**
 * Where the next chunk starts: back from `to` by at most `overlap` tokens, at a sentence start
 * if one fits, else a line start, else a word. After a chunk cut between table rows, only a row
 * start will do (else no overlap): a passage never opens with the tail of a record. Before a
 * table, not one row of the table before it alone: the table's passage opens with its title.
 */
function nextStart(
  atoms: Atom[],
  from: number,
  to: number,
  overlap: number,
  tokensOf: (from: number, to: number) => number,
  maxTokens: number,
): number {
  let start = to
  while (start - 1 > from && tokensOf(start - 1, to) <= overlap) start--
  const betweenRows = atoms[to - 1]!.breakAfter >= Break.row
  for (const wanted of betweenRows ? [Break.row] : [Break.sentence, Break.line]) {
    for (let s = start; s < to; s++) {
      if (atoms[s - 1]!.breakAfter < wanted) continue
      // Before a table, one row of the table before it alone is no context, only an orphan.
      if (atoms[to - 1]!.breakAfter === Break.table && lastRow(atoms, s, to)) return to
      return s
    }
  }
  if (betweenRows) return to
  // Keep the overlap only if the next chunk can still move past this one.
  return tokensOf(start, to + 1) <= maxTokens ? start : to
}

/** Whether atoms[s, to) hold one row: no row break between them. */
function lastRow(atoms: Atom[], s: number, to: number): boolean {
  for (let k = s; k < to - 1; k++) if (atoms[k]!.breakAfter >= Break.row) return false
  return true
}

/**
 * The title lines (as one line, when there are any) and the header row of the Markdown table
 * whose body holds `offset`, when they lie before `offset` (so not in a passage starting
 * there); none outside tables. Looks no further back than `floor`, the start of the section,
 * and for the title than `titleFloor` of the table's start.
 */
function tableAbove(
  text: string,
  offset: number,
  floor: number,
  titleFloor: (tableStart: number) => number,
): string[] {
  const header = tableHeaderAbove(text, offset, floor)
  if (!header) return []
  // A Markdown heading is in the heading path already.
  const title = text
    .slice(tableTitleStart(text, header.start, titleFloor(header.start)), header.start)
    .split('\n')
    .filter((line) => !/^ {0,3}#{1,6}\s/.test(line))
    .join(' ')
    .replace(/\s+/g, ' ')
    .trim()
  return title ? [title, header.row] : [header.row]
}

/** tableAbove's header row, and where it starts. */
function tableHeaderAbove(text: string, offset: number, floor: number) {
  let lineStart = text.lastIndexOf('\n', offset - 1) + 1
  if (!lineAt(text, lineStart).startsWith('|')) return undefined
  let first = lineStart
  while (lineStart > floor) {
    lineStart = lineStart < 2 ? 0 : text.lastIndexOf('\n', lineStart - 2) + 1
    if (lineStart < floor || !lineAt(text, lineStart).startsWith('|')) break
    first = lineStart
  }
  const header = lineAt(text, first)
  // A table without column titles has a blank header row: nothing worth repeating.
  return offset > first && /[\p{L}\p{N}]/u.test(header) ? { row: header, start: first } : undefined
}

/** The page holding character `offset`: the last page starting at or before it. */
export function pageAt(pages: PageRange[], offset: number): number {
  return pageRangeAt(pages, offset)?.number ?? 1
}

/** pageAt's page itself (undefined when there are none). */
function pageRangeAt(pages: PageRange[], offset: number): PageRange | undefined {
  let low = 0
  let high = pages.length - 1
  while (low < high) {
    const middle = Math.ceil((low + high) / 2)
    if (pages[middle]!.start <= offset) low = middle
    else high = middle - 1
  }
  return pages[low]
}
