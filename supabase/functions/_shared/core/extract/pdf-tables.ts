// Generated from packages/core/src/extract/pdf-tables.ts by `npm run sync:core`: edit that file, not this one.
import { markdownTable } from './markdown-table.ts'
import { attachMarks } from './pdf-marks.ts'
import type { PositionedLine, Segment } from './pdf-lines.ts'
import { stackedHeader, YEAR, type Column, type StackedHeader } from './pdf-table-headers.ts'

/**
 * A cell that is a figure: an amount, a percentage, a year, a dash for nil, "n/a". Financial and
 * technical tables are mostly these, prose almost never is, so they are what tells a table.
 */
const FIGURE =
  /^(?:[(\-–−]?\s*[$€£¥]?\s*[(\-–−]?\s*\d[\d,.]*\s*(?:%|pts?|x|bps)?\s*\)?\s*%?\*?|[$€£¥]?\s*[—–-]+|n\/a|nm)$/iu
const FOOTNOTE_MARK = /^(?:\(\p{L}{1,2}\)|\p{L}\)|\*+|†|‡)$/u
/** Row labels may be long ("Net cash provided by operating activities"), other cells not. */
const MAX_LABEL_WORDS = 14
const MAX_CELL_WORDS = 5
/** A segment ending in an amount ("Preferred shares, $1.66"): a label split after it. */
const AMOUNT_SPLIT = /\s[$€£¥]\d[\d,.]*$/
/** A label line wider than this is prose even inside a table's run of lines. */
const MAX_LABEL_LINE_WORDS = 20
/** Fewer body rows than this is too little evidence of a table. */
const MIN_ROWS = 3
/** Lines further apart than this many font sizes (a paragraph break is about 3) part tables. */
const MAX_LINE_GAP = 4.5

/** How many words (runs of characters between spaces) a text has, counted without splitting it. */
export function words(text: string): number {
  let count = 0
  let inWord = false
  for (let i = 0; i < text.length; i++) {
    const space = text.charCodeAt(i) === 32
    if (!space && !inWord) count++
    inWord = !space
  }
  return count
}

const isFigure = (text: string) => FIGURE.test(text.trim())

/**
 * Rewrites a page's lines: each run of lines that lines up as a table (aligned columns of
 * figures under a label column) becomes one entry holding a GFM table, set off by blank lines;
 * every other line is returned as it was. Precision first: anything doubtful stays prose.
 */
export function rebuildTables(positioned: PositionedLine[]): string[] {
  // Most pages have no line of two cells (prose, a title page): nothing to rebuild there.
  if (!positioned.some((line) => line.segments.length >= 2)) return positioned.map((l) => l.text)
  const lines = attachMarks(positioned).map((line) =>
    line.segments.length < 2 ? line : joinSymbols(line),
  )
  const blocks: { start: number; end: number; table: TableGrid }[] = []
  let i = 0
  while (i < lines.length) {
    const end = isRowLine(lines[i]!) ? blockEnd(lines, i) : i
    const table = end > i ? tableGrid(lines.slice(i, end + 1)) : undefined
    if (table) blocks.push({ start: i, end, table })
    i = table ? end + 1 : i + 1
  }
  if (blocks.length === 0) return lines.map((line) => line.text)
  // Column titles stacked in lines of their own above a table join it, wherever the content
  // stream put them (some producers draw them after the table).
  const taken = new Set(blocks.flatMap(({ start, end }) => lines.slice(start, end + 1)))
  const tables = new Map<number, string[]>()
  for (const { start, end, table } of blocks) {
    const free = lines.filter((line) => !taken.has(line))
    // The block's own title lines are read as stacked titles too (a title over a group of
    // columns lands on all of them); where they are not, as cells under the titles above.
    const titleLines = lines.slice(start, start + table.headerRows)
    const { columns, label, figures } = table
    const top = lines[start + table.headerRows]!
    const pitch = leastPitch(lines.slice(start, end + 1))
    const stacked = stackedHeader(top, columns, label, [...free, ...titleLines], pitch, figures)
    const whole = titleLines.every((line) => stacked.used.includes(line))
    const header = whole
      ? stacked
      : stackedHeader(lines[start]!, columns, label, free, pitch, figures)
    ;[...header.used, ...header.caption].forEach((line) => taken.add(line))
    const grid = whole ? { ...table, header: table.columns.map(() => '') } : table
    // The caption goes right above the table, wherever the content stream drew it.
    const caption = header.caption.map((line) => line.text).join(' ')
    const rows = withHeader(withEmptyColumns(grid, header), header)
    tables.set(start, [caption, `\n${markdownTable(rows)}\n`])
  }
  const out: string[] = []
  lines.forEach((line, k) => {
    const table = tables.get(k)
    if (table) out.push(...table.filter(Boolean))
    else if (!taken.has(line)) out.push(line.text)
  })
  return out
}

/** The least step down from one line of a table to the next. */
function leastPitch(block: readonly PositionedLine[]): number {
  let least = Infinity
  for (let k = 1; k < block.length; k++) {
    const step = block[k - 1]!.y - block[k]!.y
    if (step > 0) least = Math.min(least, step)
  }
  return least
}

const LONE_CURRENCY = /^[$€£¥]$/
const CLOSING = /^[)%]+$/

/**
 * A currency sign set apart from its amount (aligned at the column's left while the amount is
 * right-aligned) joins the amount to its right; a lone closing ")" or "%" joins the figure to
 * its left. Segments go left to right here, whatever order the content stream drew them in.
 */
function joinSymbols(line: PositionedLine): PositionedLine {
  const segments: Segment[] = []
  let pending: Segment | undefined
  for (const segment of line.segments.toSorted((a, b) => a.x0 - b.x0)) {
    const last = segments.at(-1)
    if (pending) {
      segments.push({ x0: pending.x0, x1: segment.x1, text: `${pending.text}${segment.text}` })
      pending = undefined
    } else if (LONE_CURRENCY.test(segment.text)) pending = segment
    else if (last && CLOSING.test(segment.text)) {
      segments[segments.length - 1] = { ...last, x1: segment.x1, text: last.text + segment.text }
    } else segments.push(segment)
  }
  if (pending) segments.push(pending)
  return { ...line, segments }
}

/** Two or more segments, each short enough to be a cell. */
function isRowLine(line: PositionedLine): boolean {
  if (line.segments.length < 2) return false
  // One cell may be a label (mostly the first; after a number or bullet column, the second).
  const counts = line.segments.map((s) => words(s.text))
  const label = counts.indexOf(Math.max(...counts))
  if (counts.some((n, i) => i !== label && n > MAX_CELL_WORDS)) return false
  // A long label ("Accounts receivable, net of allowances of…") is a row's if amounts follow.
  return (
    counts[label]! <= MAX_LABEL_WORDS ||
    line.segments.every((s, i) => i === label || isFigure(s.text))
  )
}

/** The index of the last line of the table run starting at `start` (a row line). */
function blockEnd(lines: PositionedLine[], start: number): number {
  let last = start
  // The left edge of the figures: a single-segment line ending before it is a row label.
  let figuresFrom = lines[start]!.segments[1]!.x0
  let figuresAbove = hasFigures(lines[start]!)
  for (let j = start + 1; j < lines.length; j++) {
    const line = lines[j]!
    const previous = lines[j - 1]!
    const gap = previous.y - line.y
    if (gap <= 0 || gap > MAX_LINE_GAP * Math.max(line.size, previous.size)) break
    const next = lines[j + 1]
    if (isRowLine(line)) {
      // A row of titles under rows of figures heads the next table ("In Millions | May 29,
      // 2022 | May 30, 2021" after a table by years): it starts a table of its own. So do
      // titles over groups of columns right above a row of years, which alone could be figures
      // ("Pension | Health Care and Life" over "At December 31, | 2021 | 2020 | 2021 | 2020").
      const overYears =
        titlesOnly(line, figuresFrom) && !!next && headsTable(next, figuresFrom, yearOrTitle)
      if (figuresAbove && (headsTable(line, figuresFrom) || overYears)) {
        // Titles over groups of its columns ("Assets", "Liabilities") right above it are its.
        if (last === j - 1) {
          while (last > start && titlesOnly(lines[last]!, figuresFrom)) last--
        }
        break
      }
      figuresAbove ||= hasFigures(line)
      last = j
      figuresFrom = Math.min(figuresFrom, line.segments[1]!.x0)
      continue
    }
    // A label line ends before the figures, in one piece (or in two where an amount in it, "$1.66
    // par value", made a gap: pdf-lines.ts sets a currency sign apart). A long one is prose,
    // unless the row it wraps into follows at once.
    const pieces = line.segments.length === 1 || AMOUNT_SPLIT.test(line.segments[0]!.text)
    const label =
      pieces &&
      line.segments.every((s) => s.x1 < figuresFrom) &&
      (words(line.text) <= MAX_LABEL_LINE_WORDS || (!!next && isRowLine(next)))
    // A label belongs to the table only if a row follows it, a few lines on at most (section
    // and subsection titles, a wrapped label: the loop checks each is a label too).
    const rowFollows = [1, 2, 3, 4, 5].some((k) => lines[j + k] && isRowLine(lines[j + k]!))
    if (!label || !rowFollows) break
  }
  return last
}

/** Whether a line has an amount (not a year) after its first cell. */
const hasFigures = (line: PositionedLine) =>
  line.segments.some((s, k) => k > 0 && isFigure(s.text) && !YEAR.test(s.text))

/** Years and dates ("May 29, 2022"): the digits a column title may have. */
const DATES =
  /\b(?:(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+\d{1,2}\b|(?:19|20)\d\d\b)/gi

/** Digits in dates only ("March 31,", "2022"): what a column title may have. */
const undated = (text: string) => !/\d/.test(text.replace(DATES, ''))
const isTitleText = (text: string) => /\p{L}/u.test(text) && undated(text)
const yearOrTitle = (text: string) => YEAR.test(text) || isTitleText(text)

/**
 * Whether a line is a table's header row: a stub title left of the figures ("In Millions",
 * "Three months ended March 31,", not a number as an exhibit index has), then two titles or more
 * (`isTitle`: by default with letters, as a row of years may be figures).
 */
function headsTable(
  line: PositionedLine,
  figuresFrom: number,
  isTitle: (text: string) => boolean = isTitleText,
): boolean {
  const [stub, ...titles] = line.segments
  return (
    stub!.x1 < figuresFrom &&
    undated(stub!.text) &&
    titles.length >= 2 &&
    titles.every((s) => isTitle(s.text))
  )
}

/** Whether a line is only titles over the figures, no stub ("Assets", "Liabilities"). */
const titlesOnly = (line: PositionedLine, figuresFrom: number) =>
  line.segments.every((s) => s.x0 >= figuresFrom && isTitleText(s.text))

/** A table rebuilt from a block of lines: its columns, header cells and body rows. */
interface TableGrid {
  columns: Column[]
  /** The row-label column (after a column of numbers or bullets, the second). */
  label: number
  header: string[]
  /** How many of the block's lines make `header`. */
  headerRows: number
  /** Whether its cells are mostly figures (else it is a table of text). */
  figures: boolean
  body: string[][]
}

/** The block as a table, or undefined when its columns do not line up as a table's do. */
function tableGrid(block: PositionedLine[]): TableGrid | undefined {
  const found = columnRanges(block)
  if (!found) return undefined
  const columns = withSparseColumns(found, block)
  const grid = block.map((line) => {
    const row = columns.map(() => '')
    for (const segment of line.segments) {
      const c = cellOf(columns, segment)
      row[c] = row[c] ? `${row[c]} ${segment.text}` : segment.text
    }
    return row
  })
  // Figures that fall between the columns mean the columns are wrong: no table then.
  const astray = block.flatMap((line) =>
    line.segments.filter((s) => isFigure(s.text) && !columns.some((c) => overlaps(c, s))),
  )
  if (astray.length > 0) return undefined
  const figures = grid.flatMap((row) => row.slice(1)).filter((cell) => cell !== '')
  const figureShare = figures.filter(isFigure).length / Math.max(1, figures.length)
  const full = grid.filter((row) => row.filter(Boolean).length >= 2).length
  // Figures make a table; a text-only grid needs three columns and more rows to be believed.
  const believable =
    figureShare >= 0.5 ? full >= MIN_ROWS : columns.length >= 3 && full >= MIN_ROWS + 1
  if (!believable) return undefined
  // A text grid's first row is its header, unless it repeats the cells below it (a row of ticks).
  const headerRows = figureShare >= 0.5 ? leadingHeaderRows(grid) : repeatsBelow(grid) ? 0 : 1
  const header = columns.map((_, c) =>
    grid
      .slice(0, headerRows)
      .map((row) => row[c])
      .filter(Boolean)
      .join(' '),
  )
  const body = grid.slice(headerRows)
  if (joinWrappedLabels(body).length < MIN_ROWS - 1) return undefined
  return {
    columns,
    label: labelColumn(body),
    header,
    headerRows,
    body,
    figures: figureShare >= 0.5,
  }
}

/** Whether half the first row's cells (but the first) recur in their column further down. */
function repeatsBelow(grid: string[][]): boolean {
  const cells = grid[0]!.map((text, c) => ({ text, c })).filter(({ text, c }) => c > 0 && text)
  const repeated = cells.filter(({ text, c }) => grid.slice(1).some((row) => row[c] === text))
  return cells.length > 0 && repeated.length * 2 >= cells.length
}

/** The column with the most words: the row labels. */
function labelColumn(body: string[][]): number {
  const totals = body[0]!.map((_, c) => body.reduce((n, row) => n + words(row[c] ?? ''), 0))
  return totals.indexOf(Math.max(...totals))
}

/**
 * The table with a column for each title over none (`above.empty`), its cells empty, and the
 * title in `above.titles` at its place (changed in place: the header is this table's alone).
 */
function withEmptyColumns(table: TableGrid, above: StackedHeader): TableGrid {
  if (above.empty.length === 0) return table
  const columns = [...table.columns]
  const header = [...table.header]
  const body = table.body.map((row) => [...row])
  for (const title of above.empty) {
    const at = columns.filter((column) => column.x0 < title.x0).length
    columns.splice(at, 0, { x0: title.x0, x1: title.x1 })
    for (const row of [header, ...body]) row.splice(at, 0, '')
    above.titles.splice(at, 0, [title.text])
  }
  return { ...table, columns, header, body }
}

/** The table's rows with the titles stacked above it over its header, its labels first. */
function withHeader(table: TableGrid, above: StackedHeader): string[][] {
  const header = table.header.map((cell, c) =>
    [...above.titles[c]!, cell].filter(Boolean).join(' '),
  )
  const labels = above.labels.map((text) =>
    table.columns.map((_, c) => (c === table.label ? text : '')),
  )
  return [header, ...joinWrappedLabels([...labels, ...table.body])]
}

/**
 * Column x ranges from the lines with the most common segment count (two or more): column c is
 * the span of every such line's c-th segment. Undefined when they overlap (ragged text).
 */
function columnRanges(lines: PositionedLine[]): Column[] | undefined {
  // Column titles may sit anywhere over their columns: the lines with amounts decide.
  const withAmounts = lines.filter((line) =>
    line.segments.slice(1).some((s) => isFigure(s.text) && !YEAR.test(s.text)),
  )
  const block = withAmounts.length >= 2 ? withAmounts : lines
  const counts = new Map<number, number>()
  for (const line of block) {
    const n = line.segments.length
    if (n >= 2) counts.set(n, (counts.get(n) ?? 0) + 1)
  }
  const [count, seen] = [...counts].sort((a, b) => b[1] - a[1] || b[0] - a[0])[0] ?? [0, 0]
  if (count < 2 || seen < 2) return undefined
  // One pass over the lines of that count for every column's span and the smallest font size.
  const columns = Array.from({ length: count }, () => ({ x0: Infinity, x1: -Infinity }))
  let size = Infinity
  for (const line of block) {
    if (line.segments.length !== count) continue
    line.segments.forEach((segment, c) => {
      const column = columns[c]!
      column.x0 = Math.min(column.x0, segment.x0)
      column.x1 = Math.max(column.x1, segment.x1)
    })
    size = Math.min(size, line.size)
  }
  for (let c = 1; c < count; c++) {
    if (columns[c]!.x0 < columns[c - 1]!.x1 - size * 0.2) return undefined
  }
  return columns
}

/**
 * The columns with those only a few rows fill (ticks under "No Authority", a figure some rows
 * lack): columnRanges takes the lines with the most common cell count, which such columns
 * exceed. A run of segments that overlaps no column, in lines where it would share its nearest
 * column with another segment of the line, is a column of its own when two lines or more have
 * it and it stays clear of the others.
 */
function withSparseColumns(columns: Column[], block: PositionedLine[]): Column[] {
  const extras: { span: Segment; line: number }[] = []
  block.forEach((line, l) => {
    if (line.segments.length <= columns.length) return
    const nearest = line.segments.map((s) => columnOf(columns, s))
    line.segments.forEach((s, k) => {
      const shared = nearest.some((c, j) => j !== k && c === nearest[k])
      if (shared && !columns.some((c) => overlaps(c, s))) extras.push({ span: s, line: l })
    })
  })
  const runs: { span: Column; lines: Set<number>; word: boolean }[] = []
  for (const { span, line } of extras.toSorted((a, b) => a.span.x0 - b.span.x0)) {
    const run = runs.at(-1)
    // A mark ("#" before a rank, a footnote's "(b)") goes with the cell beside it: only words
    // and figures make a column.
    const word = /[\p{L}\p{N}]/u.test(span.text) && !FOOTNOTE_MARK.test(span.text)
    if (run && span.x0 < run.span.x1) {
      run.span = { x0: run.span.x0, x1: Math.max(run.span.x1, span.x1) }
      run.lines.add(line)
      run.word &&= word
    } else runs.push({ span: { x0: span.x0, x1: span.x1 }, lines: new Set([line]), word })
  }
  const added = runs
    .filter(({ span, lines, word }) => word && lines.size >= 2 && span.x0 > columns[0]!.x1)
    .map(({ span }) => span)
    .filter((span) => !columns.some((c) => overlaps(c, { ...span, text: '' })))
  if (added.length === 0) return columns
  const widened = [...columns, ...added].sort((a, b) => a.x0 - b.x0)
  // Lines that still crowd a figure column belong to another layout (a second table the run of
  // lines took in): the columns were not just sparse, and stay as they were.
  return block.some((line) => crowded(line, widened)) ? columns : widened
}

/** Whether two of the line's segments fall in one column, the first (labels) aside. */
function crowded(line: PositionedLine, columns: Column[]): boolean {
  const used = line.segments.map((s) => columnOf(columns, s)).filter((c) => c > 0)
  return new Set(used).size < used.length
}

const overlaps = (column: { x0: number; x1: number }, segment: Segment) =>
  Math.min(column.x1, segment.x1) > Math.max(column.x0, segment.x0)

/**
 * The column of a row's segment: the one it overlaps most, else the nearest, but a footnote
 * mark between columns ends the cell left of it ("47,315 (d)"), however near the next.
 */
function cellOf(columns: Column[], segment: Segment): number {
  if (!FOOTNOTE_MARK.test(segment.text) || columns.some((c) => overlaps(c, segment))) {
    return columnOf(columns, segment)
  }
  const left = columns.findLastIndex((c) => c.x1 <= segment.x0)
  return left >= 0 ? left : columnOf(columns, segment)
}

/** The column a segment overlaps most, else the nearest one. */
function columnOf(columns: { x0: number; x1: number }[], segment: Segment): number {
  let best = 0
  let bestScore = -Infinity
  columns.forEach((column, c) => {
    const overlap = Math.min(column.x1, segment.x1) - Math.max(column.x0, segment.x0)
    if (overlap > bestScore) {
      best = c
      bestScore = overlap
    }
  })
  return best
}

/**
 * How many rows at the top are headers: rows with no figure but years (column titles such as
 * "2019 2018" or "Year ended December 31,"), at most three, never all of them.
 */
function leadingHeaderRows(grid: string[][]): number {
  let n = 0
  while (n < Math.min(3, grid.length - 1)) {
    const cells = grid[n]!.slice(1).filter(Boolean)
    if (cells.length === 0 || cells.some((cell) => isFigure(cell) && !YEAR.test(cell))) break
    n++
  }
  return n
}

/**
 * A label that stops mid-phrase ("…265,703,000 and", "…net of", "…shares issued at", "…(Note")
 * goes on on the next line; one ending in "net" ("Inventories, net") is whole.
 */
const UNFINISHED =
  /(?:,|\b(?:and|or|of|the|to|for|in|on|at|as|by|per|from|with|less|than|under|between)|\([^)]*)$/i

/**
 * A row label wrapped over several lines: a label-only row (not a section title ending in ":")
 * followed by a row whose label goes on (in lower case, or after an unfinished phrase) becomes
 * one row with it.
 */
function joinWrappedLabels(rows: string[][]): string[][] {
  const out: string[][] = []
  for (const row of rows) {
    const last = out.at(-1)
    const labelOnly = !!last?.[0] && last.slice(1).every((cell) => cell === '')
    // Tested only after the cheap checks pass: most rows are not label-only.
    const goesOn = () => /^\p{Ll}/u.test(row[0]!) || (UNFINISHED.test(last?.[0] ?? '') && !!row[0])
    if (last && labelOnly && !last[0]!.endsWith(':') && goesOn()) {
      out[out.length - 1] = [`${last[0]} ${row[0]}`, ...row.slice(1)]
    } else out.push(row)
  }
  return out
}
