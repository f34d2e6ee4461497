/** A box in pixels, as Tesseract gives it. */
export interface PixelBox {
  x0: number
  y0: number
  x1: number
  y1: number
}

/** A recognised line: its text, box and words (each with its own box). */
export interface LayoutLine {
  text: string
  bbox: PixelBox
  words?: { text: string; bbox: PixelBox }[]
}

interface Word {
  text: string
  bbox: PixelBox
  /** The line (by its index in Tesseract's order) the word was read in. */
  line: number
}

/** Words side by side at one height: one line, or lines of several columns Tesseract kept apart. */
type Row = Word[]

interface Gutter {
  left: number
  right: number
  /** Rows of the band, top down; those in `split` have words on both sides of the gutter. */
  rows: Row[]
  split: Set<Row>
}

/** A gutter must hold down at least this many rows with text on both sides to be one. */
const MIN_SPLIT_ROWS = 3
/**
 * A gutter is at least this wide, in line heights (about an em): wider than a justified line's
 * widest spaces (about half an em), narrower than the tightest gutters in print (a handbook's
 * 12 pt beside 10 pt text).
 */
const MIN_GUTTER_HEIGHTS = 0.8
/**
 * Each side of a column gutter holds prose: this many words a row (median), and this share of
 * the page's width. Aligned table cells, one or two words wide, are not columns: a table spanning
 * the page keeps reading row by row.
 */
const MIN_COLUMN_WORDS = 3
const MIN_COLUMN_WIDTH = 0.15

/**
 * Puts a page's recognised lines in reading order. Tesseract reads a two-column page with a
 * narrow gutter as lines running across both columns, interleaving their sentences. Here a
 * gutter is a gap between words that runs down several rows at the same x: the rows it holds
 * are read left column first, then the right one (recursively, so three columns work too),
 * while rows that cross it (a title, a full-width paragraph) keep their place above or below.
 * Lines a split leaves whole keep their text; split ones become one line per column. A page
 * with no gutter comes back exactly as Tesseract read it.
 */
export function readingOrder<T extends LayoutLine>(lines: T[], pageWidth: number): LayoutLine[] {
  const words: Word[] = lines.flatMap((line, index) =>
    wordsOf(line).map((word) => ({ text: word.text, bbox: word.bbox, line: index })),
  )
  const heights = lines.map((line) => line.bbox.y1 - line.bbox.y0).sort((a, b) => a - b)
  const lineHeight = heights[Math.floor(heights.length / 2)] ?? 0
  if (words.length === 0 || lineHeight <= 0) return lines
  const context = {
    minGap: lineHeight * MIN_GUTTER_HEIGHTS,
    minWidth: pageWidth * MIN_COLUMN_WIDTH,
  }
  const ordered = order(rowsOf(words), context)
  if (ordered === null) return lines
  return ordered.map((part) => {
    const line = lines[part[0]!.line]!
    if (part.length === wordsOf(line).length) {
      return line
    }
    return { text: part.map((word) => word.text).join(' '), bbox: union(part), words: part }
  })
}

/**
 * A line's words that have a letter or digit: the specks Tesseract reads in a gutter ("~", "|")
 * would otherwise bridge it. Split lines leave them out.
 */
function wordsOf(line: LayoutLine) {
  return (line.words ?? []).filter((word) => /[\p{L}\p{N}]/u.test(word.text))
}

interface Context {
  minGap: number
  minWidth: number
}

/**
 * The reading order of some rows as runs of words (one per output line), or null when they have
 * no gutter (their lines stay as Tesseract read them).
 */
function order(rows: Row[], context: Context): Word[][] | null {
  const gutter = widestBand(rows, context)
  if (gutter === null) return null
  const first = rows.indexOf(gutter.rows[0]!)
  const last = rows.indexOf(gutter.rows.at(-1)!)
  const middle = (gutter.left + gutter.right) / 2
  const centre = (words: Word[]) =>
    (words[0]!.bbox.x0 + Math.max(...words.map((w) => w.bbox.x1))) / 2
  // A split row's words go to their side of the gutter; a row on one side (which may reach a
  // little into the gutter) goes whole.
  const onLeft = (word: Word, row: Row) =>
    gutter.split.has(row) ? centre([word]) < middle : centre(row) < middle
  const side = (left: boolean) =>
    gutter.rows
      .map((row) => row.filter((word) => onLeft(word, row) === left))
      .filter((row) => row.length > 0)
  return [rows.slice(0, first), side(true), side(false), rows.slice(last + 1)].flatMap((part) =>
    part.length === 0 ? [] : (order(part, context) ?? asRead(part)),
  )
}

/** Rows without a gutter: their words grouped by line, in Tesseract's order, left to right. */
function asRead(rows: Row[]): Word[][] {
  const byLine = new Map<number, Word[]>()
  for (const word of rows.flat()) byLine.set(word.line, [...(byLine.get(word.line) ?? []), word])
  return [...byLine.entries()]
    .sort(([a], [b]) => a - b)
    .map(([, words]) => words.sort((a, b) => a.bbox.x0 - b.bbox.x0))
}

/** Groups words into rows by vertical overlap, top down, each row left to right. */
function rowsOf(words: Word[]): Row[] {
  const rows: { top: number; bottom: number; words: Word[] }[] = []
  const centre = (box: PixelBox) => (box.y0 + box.y1) / 2
  for (const word of [...words].sort((a, b) => centre(a.bbox) - centre(b.bbox))) {
    const row = rows.at(-1)
    const middle = centre(word.bbox)
    if (row && middle >= row.top && middle <= row.bottom) {
      row.words.push(word)
    } else {
      rows.push({ top: word.bbox.y0, bottom: word.bbox.y1, words: [word] })
    }
  }
  return rows.map((row) => row.words.sort((a, b) => a.bbox.x0 - b.bbox.x0))
}

/** The gaps between a row's words at least `minGap` wide, as [left, right] x ranges. */
function gaps(row: Row, minGap: number): [number, number][] {
  const runs = runsOf(row, minGap)
  return runs
    .slice(1)
    .map((run, i) => [Math.max(...runs[i]!.map((word) => word.bbox.x1)), run[0]!.bbox.x0])
}

/**
 * The column gutter holding down the most rows, if any: a wide gap open down consecutive rows
 * (a row entirely on one side, such as a column's short last line, keeps it open; a row with a
 * word across it closes it), with prose on both sides.
 */
function widestBand(rows: Row[], context: Context): Gutter | null {
  const { minGap } = context
  let best: Gutter | null = null
  let open: Gutter[] = []
  const close = (gutter: Gutter) => {
    if (isColumnGutter(gutter, context) && (best === null || gutter.split.size > best.split.size)) {
      best = gutter
    }
  }
  for (const row of rows) {
    const rowGaps = gaps(row, minGap)
    const used = new Set<[number, number]>()
    const still: Gutter[] = []
    for (const gutter of open) {
      const gap = rowGaps.find(
        ([left, right]) => Math.min(right, gutter.right) - Math.max(left, gutter.left) >= minGap,
      )
      if (gap) {
        used.add(gap)
        gutter.left = Math.max(gutter.left, gap[0])
        gutter.right = Math.min(gutter.right, gap[1])
        gutter.rows.push(row)
        gutter.split.add(row)
        still.push(gutter)
      } else if (!crosses(row, gutter, minGap)) {
        gutter.rows.push(row)
        still.push(gutter)
      } else {
        close(gutter)
      }
    }
    for (const gap of rowGaps) {
      if (!used.has(gap)) {
        still.push({ left: gap[0], right: gap[1], rows: [row], split: new Set([row]) })
      }
    }
    open = still
  }
  open.forEach(close)
  return best
}

/**
 * Whether a row without a gap at the gutter runs across it (a title, a full-width line) rather
 * than keeping to one side: it reaches well past both of the gutter's edges. A column's line
 * that pokes a little into the gutter (a speck, a long last word) does not.
 */
function crosses(row: Row, gutter: Gutter, minGap: number): boolean {
  return (
    row[0]!.bbox.x0 < gutter.left - minGap &&
    Math.max(...row.map((word) => word.bbox.x1)) > gutter.right + minGap
  )
}

/**
 * Whether a band's two sides read as columns of prose rather than a table's cells: each side's
 * runs of words (a side split at its own wide gaps, so a third column counts as one) hold
 * several words and a fair width. A financial statement's label has words enough, but the
 * figures across from it are a word or two apart: the table keeps reading row by row.
 */
function isColumnGutter(gutter: Gutter, { minGap, minWidth }: Context): boolean {
  if (gutter.split.size < MIN_SPLIT_ROWS) return false
  const split = [...gutter.split]
  const prose = (parts: Word[][]) => {
    const runs = parts.flatMap((part) => runsOf(part, minGap))
    const counts = runs.map((run) => run.length).sort((a, b) => a - b)
    const widths = runs.map((run) => union(run).x1 - union(run).x0).sort((a, b) => a - b)
    const median = Math.floor(runs.length / 2)
    return counts[median]! >= MIN_COLUMN_WORDS && widths[median]! >= minWidth
  }
  return (
    prose(split.map((row) => row.filter((word) => word.bbox.x1 <= gutter.left))) &&
    prose(split.map((row) => row.filter((word) => word.bbox.x0 >= gutter.right)))
  )
}

/** A row's words (left to right) cut at gaps of at least `minGap`. */
function runsOf(row: Row, minGap: number): Word[][] {
  const runs: Word[][] = []
  let reach = -Infinity
  for (const word of row) {
    if (word.bbox.x0 - reach >= minGap || runs.length === 0) runs.push([])
    runs.at(-1)!.push(word)
    reach = Math.max(reach, word.bbox.x1)
  }
  return runs
}

function union(words: { bbox: PixelBox }[]): PixelBox {
  return {
    x0: Math.min(...words.map((word) => word.bbox.x0)),
    y0: Math.min(...words.map((word) => word.bbox.y0)),
    x1: Math.max(...words.map((word) => word.bbox.x1)),
    y1: Math.max(...words.map((word) => word.bbox.y1)),
  }
}
