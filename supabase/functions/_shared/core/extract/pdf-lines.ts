// Generated from packages/core/src/extract/pdf-lines.ts by `npm run sync:core`: edit that file, not this one.
/** The part of a pdf.js text item we use (TextMarkedContent items have no `str`). */
export interface PdfTextItem {
  str: string
  transform: number[]
  width: number
  height: number
  hasEOL: boolean
}

/** A run of a line's text with no wide gap inside: a table cell when the line is a table row. */
export interface Segment {
  x0: number
  x1: number
  text: string
}

/** A line of a page with where it sits: its baseline, font size and gap-separated segments. */
export interface PositionedLine {
  text: string
  y: number
  size: number
  segments: Segment[]
}

/**
 * A horizontal gap this many font sizes wide separates two segments: wider than any word space
 * of justified prose, narrower than the gutter between two table columns.
 */
const SEGMENT_GAP = 0.9
const CURRENCY = /^\s*[$€£¥]\s*$/
/** Runs of text between wide (two or more) spaces. */
const PIECES = /\S+(?: \S+)*/g

/**
 * Rebuilds a page's lines from pdf.js text items in content-stream order (which is reading order
 * for born-digital files): a baseline jump starts a new line, a horizontal gap becomes a space.
 */
export function itemsToLines(items: readonly object[]): string[] {
  return positionedLines(items).map((line) => line.text)
}

/** itemsToLines with each line's position and segments, for table detection. */
export function positionedLines(items: readonly object[]): PositionedLine[] {
  const lines: PositionedLine[] = []
  let line: PositionedLine | undefined
  let lastY = 0
  let lastEndX = 0
  let lastSize = 0
  // Where the last visible glyph ends: blank items are not ink (some producers emit spaces
  // with widths that span the whole line) and must neither open nor close a gap.
  let inkEndX = 0
  let afterCurrency = false
  const finish = () => {
    if (!line) return
    const text = tidy(line.text)
    // The line and its segments are this function's own: tidied in place, not copied.
    if (text !== '') {
      line.text = text
      line.segments = line.segments.filter((s) => {
        s.text = tidy(s.text)
        return s.text !== ''
      })
      lines.push(line)
    }
    line = undefined
  }
  // The last ink item, where its text starts in its line's text, and its x: a currency sign
  // drawn after its amount but left of it goes before it in the text ("$712", not "712$").
  let inkText = ''
  let inkAt = 0
  let inkX = 0
  let afterFigure = false
  for (const item of items) {
    if (!('str' in item)) continue
    const { str: drawn, transform, height, hasEOL } = item as PdfTextItem
    const y = transform[5] ?? 0
    const size = height || Math.hypot(transform[2] ?? 0, transform[3] ?? 0)
    // Text set upright (a column title turned 90°) runs up the page: across it, it is one line
    // high, left of its origin when turned anticlockwise. Its length is not its width.
    const rise = transform[1] ?? 0
    const upright = Math.abs(rise) > Math.abs(transform[0] ?? 0)
    const drawnX = (transform[4] ?? 0) - (upright && rise > 0 ? size : 0)
    const drawnWidth = upright ? size : (item as PdfTextItem).width
    // A cell's currency sign drawn at the end of the item before its amount ("(29.8)$", "- $")
    // is the next cell's: the item is read as two, the sign the second.
    const cut = trailingSign(drawn)
    for (let piece = cut > 0 ? 0 : 1; piece < 2; piece++) {
      const head = cut > 0 ? (drawnWidth * cut) / drawn.length : 0
      const str = cut === 0 ? drawn : piece === 0 ? drawn.slice(0, cut) : drawn.slice(cut)
      const x = piece === 0 ? drawnX : drawnX + head
      const width = cut === 0 ? drawnWidth : piece === 0 ? head : drawnWidth - head
      let gap = false
      if (line && str !== '') {
        if (Math.abs(y - lastY) > Math.max(size, lastSize) * 0.5) finish()
        else {
          gap = x - inkEndX > size * SEGMENT_GAP || x < inkEndX - size
          // A currency sign sits at its column's left, apart from its amount, and some
          // producers write it after the amount: it is a segment of its own (table detection
          // places it). One that opens an item right after a figure starts the next cell,
          // however near.
          const sign = CURRENCY.test(str)
          if (sign || (afterCurrency && str.trim() !== '') || (afterFigure && LEADS.test(str))) {
            gap = true
          }
          const at =
            sign && x + width <= inkX ? inkAt + inkText.length - inkText.trimStart().length : -1
          if (at >= 0 && !line.text.includes(' ', at)) {
            line.text = line.text.slice(0, at) + str.trim() + line.text.slice(at)
            addToSegments(line.segments, str, x, width, gap)
            lastEndX = x + width
            inkEndX = x + width
            afterCurrency = true
            continue
          }
          if (x - lastEndX > size * 0.15 && !line.text.endsWith(' ') && !str.startsWith(' ')) {
            line.text += ' '
          }
        }
      }
      if (str !== '') {
        line ??= { text: '', y, size, segments: [] }
        const at = line.text.length
        line.text += str
        addToSegments(line.segments, str, x, width, gap)
        lastY = y
        lastEndX = x + width
        lastSize = size
        if (str.trim() !== '') {
          inkEndX = x + width
          inkX = x
          inkText = str
          inkAt = at
          afterCurrency = CURRENCY.test(str)
          afterFigure = endsWithFigure(str)
        }
      }
    }
    if (hasEOL && line?.text) finish()
  }
  finish()
  return lines
}

/** An item opening with a currency sign ("$ 12,813"). */
const LEADS = /^\s*[$€£¥]/
const SIGNS = '$€£¥'
/** What a figure ends with: a digit, a closing parenthesis, a percent sign, a dash for nil. */
const FIGURE_ENDS = '0123456789)%—–-'

/** Where the text up to `end` stops, spaces aside. */
function inkEnd(str: string, end = str.length): number {
  while (end > 0 && str.charCodeAt(end - 1) === 32) end--
  return end
}

/** Whether the text ends with a figure (checked by hand: this runs for every text item). */
function endsWithFigure(str: string, end = str.length): boolean {
  const last = inkEnd(str, end)
  return last > 0 && FIGURE_ENDS.includes(str[last - 1]!)
}

/** Where a currency sign that ends a figure's item ("(29.8)$", "- $") starts, or 0. */
function trailingSign(str: string): number {
  const end = inkEnd(str)
  if (end < 2 || !SIGNS.includes(str[end - 1]!)) return 0
  const cut = inkEnd(str, end - 1)
  return cut > 0 && endsWithFigure(str, cut) ? cut : 0
}

/** Whitespace a line's text must lose: at an end, two in a row, or other than a space. */
const UNTIDY = /^\s|\s$|\s\s|[^\S ]/

/** The text with each run of whitespace one space, trimmed; most are already (no copy then). */
function tidy(text: string): string {
  return UNTIDY.test(text) ? text.replace(/\s+/g, ' ').trim() : text
}

/**
 * Adds an item's text to the line's segments: a new segment after a gap, and one per run of
 * text between wide spaces inside the item (their x interpolated along the item's width).
 */
function addToSegments(segments: Segment[], str: string, x: number, width: number, gap: boolean) {
  const perChar = str.length > 0 ? width / str.length : 0
  // One exec loop, not an array of matches: this runs for every text item of every page.
  PIECES.lastIndex = 0
  let piece = PIECES.exec(str)
  if (!piece) {
    const last = segments.at(-1)
    if (last && !gap) last.text += str
    return
  }
  for (let first = true; piece; piece = PIECES.exec(str), first = false) {
    const x0 = x + piece.index * perChar
    const x1 = x0 + piece[0].length * perChar
    const last = segments.at(-1)
    const before = first ? str.slice(0, piece.index) : ''
    if (last && first && !gap && !/\s{2}/.test(before)) {
      last.text += before + piece[0]
      last.x1 = Math.max(last.x1, x1)
    } else segments.push({ x0, x1, text: piece[0] })
  }
}
