// Generated from packages/core/src/extract/ocr-columns.ts by `npm run sync:core`: edit that file, not this one.
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
  /** Rows of the band, top down; `split` of them have words on both sides of the gutter. */
  rows: Row[]
  split: number
}

/** A gutter must hold down at least this many rows with text on both sides to be one. */
const MIN_SPLIT_ROWS = 3
/** A gutter is at least this wide, in line heights: wider than any space between words. */
const MIN_GUTTER_HEIGHTS = 1.2
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
    (line.words ?? [])
      .filter((word) => word.text.trim() !== '')
      .map((word) => ({ text: word.text, bbox: word.bbox, line: index })),
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
    if (part.length === (line.words ?? []).filter((word) => word.text.trim() !== '').length) {
      return line
    }
    return { text: part.map((word) => word.text).join(' '), bbox: union(part), words: part }
  })
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
  const side = (keep: (word: Word) => boolean) =>
    gutter.rows.map((row) => row.filter(keep)).filter((row) => row.length > 0)
  const left = side((word) => (word.bbox.x0 + word.bbox.x1) / 2 < middle)
  const right = side((word) => (word.bbox.x0 + word.bbox.x1) / 2 >= middle)
  return [rows.slice(0, first), left, right, rows.slice(last + 1)].flatMap((part) =>
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
  const found: [number, number][] = []
  let reach = row[0]!.bbox.x1
  for (const word of row.slice(1)) {
    if (word.bbox.x0 - reach >= minGap) found.push([reach, word.bbox.x0])
    reach = Math.max(reach, word.bbox.x1)
  }
  return found
}

/**
 * The column gutter holding down the most rows, if any: a wide gap open down consecutive rows
 * (a row entirely on one side, such as a column's short last line, keeps it open; a row with a
 * word across it closes it), with prose on both sides.
 */
function widestBand(rows: Row[], { minGap, minWidth }: Context): Gutter | null {
  let best: Gutter | null = null
  let open: Gutter[] = []
  const close = (gutter: Gutter) => {
    if (isColumnGutter(gutter, minWidth) && (best === null || gutter.split > best.split)) {
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
        gutter.split++
        still.push(gutter)
      } else if (row.every((word) => word.bbox.x1 <= gutter.left || word.bbox.x0 >= gutter.right)) {
        gutter.rows.push(row)
        still.push(gutter)
      } else {
        close(gutter)
      }
    }
    for (const gap of rowGaps) {
      if (!used.has(gap)) still.push({ left: gap[0], right: gap[1], rows: [row], split: 1 })
    }
    open = still
  }
  open.forEach(close)
  return best
}

/** Whether a band's two sides read as columns of prose rather than a table's cells. */
function isColumnGutter(gutter: Gutter, minWidth: number): boolean {
  if (gutter.split < MIN_SPLIT_ROWS) return false
  const split = gutter.rows.filter(
    (row) => row[0]!.bbox.x1 <= gutter.left && row.at(-1)!.bbox.x0 >= gutter.right,
  )
  const prose = (words: Word[][]) => {
    const counts = words.map((part) => part.length).sort((a, b) => a - b)
    const widths = words.map((part) => union(part).x1 - union(part).x0).sort((a, b) => a - b)
    const median = Math.floor(words.length / 2)
    return counts[median]! >= MIN_COLUMN_WORDS && widths[median]! >= minWidth
  }
  return (
    prose(split.map((row) => row.filter((word) => word.bbox.x1 <= gutter.left))) &&
    prose(split.map((row) => row.filter((word) => word.bbox.x0 >= gutter.right)))
  )
}

function union(words: { bbox: PixelBox }[]): PixelBox {
  return {
    x0: Math.min(...words.map((word) => word.bbox.x0)),
    y0: Math.min(...words.map((word) => word.bbox.y0)),
    x1: Math.max(...words.map((word) => word.bbox.x1)),
    y1: Math.max(...words.map((word) => word.bbox.y1)),
  }
}
