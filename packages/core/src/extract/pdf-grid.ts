import type { Rule } from './pdf-rules.ts'

/**
 * A ruled table's cell borders: column edges left to right, row edges top to bottom, and the
 * horizontal rules drawn (a row edge a column's rule does not cross is inside a merged cell).
 */
export interface Grid {
  xs: number[]
  ys: number[]
  horizontal: Rule[]
}

/** Rules this close (pt) are one line: double strokes, a border drawn by two adjacent cells. */
export const SAME_LINE = 2
/** How far (pt) a rule may stop short of the one it meets and still join it. */
export const REACH = 2.5
/** Beyond this many rules a page is a drawing or a chart, not a table's borders. */
const MAX_RULES = 1500

/**
 * The grids the rules form: sets of horizontal and vertical rules that meet one another and
 * part at least two rows by two columns of cells. Rules that meet nothing, a frame around a
 * page or a box around a paragraph (one cell) make no grid.
 */
export function findGrids(all: readonly Rule[]): Grid[] {
  // Filled areas are often cell backgrounds, white or shaded, of tables without borders: only
  // drawn lines make a grid, and the areas' edges then split its rows and columns further.
  const rules = all.filter((r) => !r.edge)
  if (rules.length < 3 || rules.length > MAX_RULES) return []
  const horizontal = merge(
    rules.filter((r) => r.y0 === r.y1),
    (r) => r.y0,
    (r) => [r.x0, r.x1],
  )
  const vertical = merge(
    rules.filter((r) => r.x0 === r.x1 && r.y0 !== r.y1),
    (r) => r.x0,
    (r) => [r.y0, r.y1],
  )
  if (horizontal.length === 0 || vertical.length === 0) return []
  // Union-find over the rules: a horizontal and a vertical rule that cross or touch join.
  const parent = [...horizontal, ...vertical].map((_, i) => i)
  const find = (i: number): number => (parent[i] === i ? i : (parent[i] = find(parent[i]!)))
  horizontal.forEach((h, i) => {
    vertical.forEach((v, j) => {
      const meets =
        v.x0 >= h.x0 - REACH && v.x0 <= h.x1 + REACH && h.y0 >= v.y0 - REACH && h.y0 <= v.y1 + REACH
      if (meets) parent[find(i)] = find(horizontal.length + j)
    })
  })
  const groups = new Map<number, { horizontal: Rule[]; vertical: Rule[] }>()
  const groupOf = (i: number) => {
    const group = groups.get(find(i)) ?? { horizontal: [], vertical: [] }
    groups.set(find(i), group)
    return group
  }
  horizontal.forEach((h, i) => groupOf(i).horizontal.push(h))
  vertical.forEach((v, j) => groupOf(horizontal.length + j).vertical.push(v))
  return [...groups.values()]
    .filter(
      (g) =>
        g.horizontal.length > 0 &&
        g.vertical.length > 0 &&
        g.horizontal.length + g.vertical.length >= 3,
    )
    .map(({ horizontal: hs, vertical: vs }) => ({
      horizontal: hs,
      // Many tables leave their sides (or top) open: the rules' ends are the outer edges then.
      xs: distinct([
        ...vs.map((v) => v.x0),
        Math.min(...hs.map((h) => h.x0)),
        Math.max(...hs.map((h) => h.x1)),
      ]),
      ys: distinct([
        ...hs.map((h) => h.y0),
        Math.min(...vs.map((v) => v.y0)),
        Math.max(...vs.map((v) => v.y1)),
      ]).reverse(),
    }))
    .filter((grid) => grid.xs.length >= 3 && grid.ys.length >= 3)
    .map((grid) => withEdges(grid, all))
}

/**
 * The grid with the filled areas' edges inside it as further column and row edges, grown by the
 * shaded cells that sit on its top or bottom (a header row set off by shading alone).
 */
function withEdges(grid: Grid, rules: readonly Rule[]): Grid {
  const [left, right] = [grid.xs[0]!, grid.xs.at(-1)!]
  const edges = rules.filter((r) => r.edge && r.x0 >= left - REACH && r.x1 <= right + REACH)
  const sides = edges.filter((r) => r.x0 === r.x1)
  let [top, bottom] = [grid.ys[0]!, grid.ys.at(-1)!]
  for (const side of sides) {
    if (Math.abs(side.y0 - top) <= REACH) top = Math.max(top, side.y1)
    if (Math.abs(side.y1 - bottom) <= REACH) bottom = Math.min(bottom, side.y0)
  }
  const inside = edges.filter((r) => r.y0 >= bottom - REACH && r.y1 <= top + REACH)
  return {
    horizontal: [...grid.horizontal, ...inside.filter((r) => r.y0 === r.y1)],
    xs: distinct([...grid.xs, ...inside.filter((r) => r.x0 === r.x1).map((r) => r.x0)]),
    ys: distinct([
      ...grid.ys,
      top,
      bottom,
      ...inside.filter((r) => r.y0 === r.y1).map((r) => r.y0),
    ]).reverse(),
  }
}

/**
 * Collinear rules that overlap or touch become one (tables are often drawn one cell edge at a
 * time); `at` is the rule's fixed coordinate, `span` its extent along the line.
 */
function merge(
  rules: Rule[],
  at: (rule: Rule) => number,
  span: (rule: Rule) => [number, number],
): Rule[] {
  const sorted = rules.toSorted((a, b) => at(a) - at(b) || span(a)[0] - span(b)[0])
  const lines: { at: number; from: number; to: number }[] = []
  for (const rule of sorted) {
    const [from, to] = span(rule)
    const line = lines.findLast(
      (l) => Math.abs(l.at - at(rule)) <= SAME_LINE && from <= l.to + REACH,
    )
    if (line) line.to = Math.max(line.to, to)
    else lines.push({ at: at(rule), from, to })
  }
  const horizontal = rules[0] ? rules[0].y0 === rules[0].y1 : true
  return lines.map((l) =>
    horizontal
      ? { x0: l.from, x1: l.to, y0: l.at, y1: l.at }
      : { x0: l.at, x1: l.at, y0: l.from, y1: l.to },
  )
}

/** The values with those within SAME_LINE of a kept one dropped. */
function distinct(values: number[]): number[] {
  const out: number[] = []
  for (const value of values.toSorted((a, b) => a - b)) {
    if (out.length === 0 || value - out.at(-1)! > SAME_LINE) out.push(value)
  }
  return out
}
