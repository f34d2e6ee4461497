// Generated from packages/core/src/extract/pdf-ruled-tables.ts by `npm run sync:core`: edit that file, not this one.
import { markdownTable } from './markdown-table.ts'
import type { Grid } from './pdf-grid.ts'
import { positionedLines, type PdfTextItem, type PositionedLine } from './pdf-lines.ts'
import { rebuildTables } from './pdf-tables.ts'

/** How far (pt) a rule may sit from a row edge and still be the rule there. */
const RULE_SLACK = 2

/**
 * A page's lines with each ruled grid that holds a table (two rows and two columns with text at
 * least) as one GFM table entry where its first text item comes in content order: the rules
 * decide rows and columns, so multi-line cells and paragraphs in boxes stay whole. Text outside
 * the grids goes through the position-based rebuild as before.
 */
export function linesWithRuledTables(items: readonly object[], grids: readonly Grid[]): string[] {
  const text = items.filter((item): item is PdfTextItem => 'str' in item)
  const cellOf = text.map((item) => locate(item, grids))
  const tables = grids.map((grid, g) =>
    table(
      grid,
      text.filter((_, i) => cellOf[i]?.grid === g),
    ),
  )
  const out: string[] = []
  let run: PdfTextItem[] = []
  const flush = () => {
    if (run.length > 0) out.push(...rebuildTables(positionedLines(run)))
    run = []
  }
  const placed = new Set<number>()
  text.forEach((item, i) => {
    const g = cellOf[i]?.grid
    if (g === undefined || tables[g] === undefined) run.push(item)
    else if (!placed.has(g)) {
      flush()
      out.push(`\n${tables[g]}\n`)
      placed.add(g)
    }
  })
  flush()
  return out
}

/** The grid (and its row and column) whose cell holds the item's start, if any. */
function locate(item: PdfTextItem, grids: readonly Grid[]) {
  if (item.str.trim() === '') return undefined
  const [a = 1, b = 0, , , x = 0, y = 0] = item.transform
  // Just past the text's start along its direction (rotated column titles run upwards), a third
  // of its height above the baseline: a cell merged over several columns holds its text in the
  // first of them, where the text starts, whatever its width.
  const length = Math.hypot(a, b) || 1
  const size = item.height || length
  const along = Math.min(item.width / 2, size / 2)
  const midX = x + (a / length) * along - (b / length) * (size / 3)
  const midY = y + (b / length) * along + (a / length) * (size / 3)
  for (const [g, grid] of grids.entries()) {
    const column = grid.xs.findIndex((edge, c) => c > 0 && midX < edge && midX > grid.xs[c - 1]!)
    const row = grid.ys.findIndex((edge, r) => r > 0 && midY > edge && midY < grid.ys[r - 1]!)
    if (column > 0 && row > 0) return { grid: g, row: row - 1, column: column - 1 }
  }
  return undefined
}

/** The grid's cells as a GFM table, empty rows and columns left out; undefined if under 2×2. */
function table(grid: Grid, items: PdfTextItem[]): string | undefined {
  const cells = Array.from({ length: grid.ys.length - 1 }, () =>
    Array.from({ length: grid.xs.length - 1 }, () => [] as PdfTextItem[]),
  )
  for (const item of items) {
    const at = locate(item, [grid])
    if (at) cells[at.row]![at.column]!.push(item)
  }
  const lines = mergedDown(grid, cells).map((row) => row.map((cell) => positionedLines(cell)))
  const texts = lines.flatMap(splitRow)
  const rows = texts.filter((row) => row.some(Boolean))
  const used = rows[0]?.map((_, c) => rows.some((row) => row[c])) ?? []
  const kept = rows.map((row) => row.filter((_, c) => used[c]))
  if (kept.length < 2 || (kept[0]?.length ?? 0) < 2) return undefined
  return markdownTable(kept)
}

/**
 * A ruled row's cells (their lines) as one or more table rows. Its cells' lines joined: a wrapped
 * cell reads as one phrase. But where every non-empty cell starts a line on the same baseline,
 * the table left out a rule between rows: a new row starts there.
 */
function splitRow(cells: PositionedLine[][]): string[][] {
  const filled = cells.filter((lines) => lines.length > 0)
  const [first] = filled
  if (!first || filled.length < 2) return [cells.map(joined)]
  const onBaseline = (lines: PositionedLine[], y: number) =>
    lines.some((line) => Math.abs(line.y - y) <= line.size * 0.3)
  // Top down, whatever order the content stream drew the lines in.
  const starts = first
    .map((line) => line.y)
    .sort((a, b) => b - a)
    .slice(1)
    .filter((y, k, ys) => k === 0 || ys[k - 1]! - y > first[0]!.size * 0.3)
    .filter((y) => filled.every((lines) => onBaseline(lines, y)))
  if (starts.length === 0) return [cells.map(joined)]
  // Baselines go down the page: a line belongs to the last row start at or above it.
  const bounds = [Infinity, ...starts.map((y) => y + first[0]!.size * 0.3)]
  return bounds.map((top, k) =>
    cells.map((lines) =>
      joined(lines.filter((line) => line.y < top && !(line.y < (bounds[k + 1] ?? -Infinity)))),
    ),
  )
}

const joined = (lines: PositionedLine[]) => lines.map((line) => line.text).join(' ')

/**
 * The cells with those merged over several rows (no rule between them in their column) each
 * holding the merged cell's items, as docling and spreadsheets repeat a merged cell's value.
 */
function mergedDown(grid: Grid, cells: PdfTextItem[][][]): PdfTextItem[][][] {
  const out = cells.map((row) => row.map((cell) => [...cell]))
  for (let c = 0; c < grid.xs.length - 1; c++) {
    const middle = (grid.xs[c]! + grid.xs[c + 1]!) / 2
    let from = 0
    for (let r = 1; r <= cells.length; r++) {
      const y = grid.ys[r]!
      const ruled =
        r === cells.length ||
        grid.horizontal.some(
          (h) => Math.abs(h.y0 - y) <= RULE_SLACK && h.x0 <= middle && h.x1 >= middle,
        )
      if (!ruled) continue
      if (r - from > 1) {
        const items = cells.slice(from, r).flatMap((row) => row[c]!)
        for (let k = from; k < r; k++) out[k]![c] = items
      }
      from = r
    }
  }
  return out
}
