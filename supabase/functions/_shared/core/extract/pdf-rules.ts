// Generated from packages/core/src/extract/pdf-rules.ts by `npm run sync:core`: edit that file, not this one.
/**
 * A horizontal (y0 = y1) or vertical (x0 = x1) rule drawn on a page, in page space: a line, or
 * the edge of a filled area (`edge`), which only divides a grid that lines make.
 */
export interface Rule {
  x0: number
  y0: number
  x1: number
  y1: number
  edge?: true
}

/** The pdf.js operator codes this reads (pdf.js's `OPS`), by name. */
export interface RuleOps {
  save: number
  restore: number
  transform: number
  paintFormXObjectBegin: number
  paintFormXObjectEnd: number
  constructPath: number
  setStrokeRGBColor: number
  setFillRGBColor: number
  stroke: number
  closeStroke: number
  fill: number
  eoFill: number
  fillStroke: number
  eoFillStroke: number
  closeFillStroke: number
  closeEOFillStroke: number
}

/** pdf.js's path drawing codes inside a constructPath's data (`DrawOPS`). */
const MOVE_TO = 0
const LINE_TO = 1
const CURVE_TO = 2
const QUADRATIC_CURVE_TO = 3
const CLOSE_PATH = 4

/** A filled rectangle this thin (pt) is a rule; thicker ones are shaded areas. */
export const MAX_RULE_WIDTH = 2.5
/** Shorter strokes are glyph parts, ticks or underlines of a word, not cell borders. */
export const MIN_RULE_LENGTH = 6
/** How far off axis-aligned (pt) a stroke may be and still count as a rule. */
export const SKEW = 0.5
/**
 * Ink lighter than this (0 black, 1 white) is a background: thin light fills are spacer cells of
 * a shaded table, not lines, and white draws nothing on paper.
 */
const LIGHT = 0.8
const WHITE = 0.99

export type Matrix = [number, number, number, number, number, number]

export const multiply = (m: Matrix, n: Matrix): Matrix => [
  m[0] * n[0] + m[2] * n[1],
  m[1] * n[0] + m[3] * n[1],
  m[0] * n[2] + m[2] * n[3],
  m[1] * n[2] + m[3] * n[3],
  m[0] * n[4] + m[2] * n[5] + m[4],
  m[1] * n[4] + m[3] * n[5] + m[5],
]

/**
 * The horizontal and vertical rules a page draws: stroked straight lines and rectangle edges,
 * and filled rectangles thin enough to be lines, with the graphics state's transforms applied.
 * Paths that only clip (endPath) are not ink and are left out.
 */
export function pageRules(
  fnArray: readonly number[],
  argsArray: readonly unknown[],
  ops: RuleOps,
): Rule[] {
  const strokes = new Set([
    ops.stroke,
    ops.closeStroke,
    ops.fillStroke,
    ops.eoFillStroke,
    ops.closeFillStroke,
    ops.closeEOFillStroke,
  ])
  const fills = new Set([ops.fill, ops.eoFill])
  const rules: Rule[] = []
  const stack: State[] = []
  let state: State = { ctm: [1, 0, 0, 1, 0, 0], stroke: 0, fill: 0 }
  fnArray.forEach((fn, i) => {
    const args = argsArray[i] as unknown[] | null
    if (fn === ops.save) stack.push(state)
    else if (fn === ops.restore) state = stack.pop() ?? state
    else if (fn === ops.transform) state = { ...state, ctm: multiply(state.ctm, args as Matrix) }
    else if (fn === ops.setStrokeRGBColor) state = { ...state, stroke: lightness(args?.[0]) }
    else if (fn === ops.setFillRGBColor) state = { ...state, fill: lightness(args?.[0]) }
    else if (fn === ops.paintFormXObjectBegin) {
      stack.push(state)
      if (Array.isArray(args?.[0])) {
        state = { ...state, ctm: multiply(state.ctm, args[0] as Matrix) }
      }
    } else if (fn === ops.paintFormXObjectEnd) state = stack.pop() ?? state
    else if (fn === ops.constructPath && args) {
      const paint = args[0] as number
      const data = (args[1] as ArrayLike<number>[] | undefined)?.[0]
      if (!data) return
      const stroked = strokes.has(paint) && state.stroke < WHITE
      const filled = (fills.has(paint) || paint === ops.fillStroke) && state.fill < WHITE
      if (!stroked && !filled) return
      for (const path of subpaths(data, state.ctm)) {
        if (stroked && state.stroke <= LIGHT) rules.push(...strokedRules(path))
        else if (filled) rules.push(...filledRule(path, state.fill <= LIGHT))
      }
    }
  })
  return rules
}

/** The transform and how light the stroke and fill colours are (0 black to 1 white). */
interface State {
  ctm: Matrix
  stroke: number
  fill: number
}

/** A "#rrggbb" colour's lightness (0 to 1); other colour forms (patterns) count as dark. */
function lightness(color: unknown): number {
  if (typeof color !== 'string' || !/^#[0-9a-f]{6}$/i.test(color)) return 0
  const [r, g, b] = [1, 3, 5].map((i) => parseInt(color.slice(i, i + 2), 16) / 255)
  return 0.299 * r! + 0.587 * g! + 0.114 * b!
}

type Point = [number, number]

/** The path's subpaths as point lists in page space; null marks a curve (never a rule). */
function subpaths(data: ArrayLike<number>, m: Matrix): (Point | null)[][] {
  const paths: (Point | null)[][] = []
  let current: (Point | null)[] = []
  const at = (x: number, y: number): Point => [
    m[0] * x + m[2] * y + m[4],
    m[1] * x + m[3] * y + m[5],
  ]
  for (let i = 0; i < data.length;) {
    const op = data[i++]
    if (op === MOVE_TO) {
      if (current.length > 0) paths.push(current)
      current = [at(data[i]!, data[i + 1]!)]
      i += 2
    } else if (op === LINE_TO) {
      current.push(at(data[i]!, data[i + 1]!))
      i += 2
    } else if (op === CURVE_TO) {
      current.push(null, at(data[i + 4]!, data[i + 5]!))
      i += 6
    } else if (op === QUADRATIC_CURVE_TO) {
      current.push(null, at(data[i + 2]!, data[i + 3]!))
      i += 4
    } else if (op === CLOSE_PATH) {
      const first = current[0]
      if (first) current.push(first)
    } else break
  }
  if (current.length > 0) paths.push(current)
  return paths
}

/** Each straight, axis-aligned, long enough piece of a stroked path. */
function strokedRules(path: (Point | null)[]): Rule[] {
  const rules: Rule[] = []
  for (let k = 1; k < path.length; k++) {
    const a = path[k - 1]
    const b = path[k]
    if (a && b) {
      const rule = axisRule(a, b)
      if (rule) rules.push(rule)
    }
  }
  return rules
}

function axisRule([ax, ay]: Point, [bx, by]: Point): Rule | undefined {
  if (Math.abs(ay - by) <= SKEW && Math.abs(ax - bx) >= MIN_RULE_LENGTH) {
    const y = (ay + by) / 2
    return { x0: Math.min(ax, bx), x1: Math.max(ax, bx), y0: y, y1: y }
  }
  if (Math.abs(ax - bx) <= SKEW && Math.abs(ay - by) >= MIN_RULE_LENGTH) {
    const x = (ax + bx) / 2
    return { x0: x, x1: x, y0: Math.min(ay, by), y1: Math.max(ay, by) }
  }
  return undefined
}

/**
 * A filled axis-aligned rectangle: dark and no thicker than a line, the rule along its middle;
 * larger, its four edges.
 */
function filledRule(path: (Point | null)[], dark: boolean): Rule[] {
  if (path.length < 4 || path.length > 5 || path.some((p) => p === null)) return []
  const points = path as Point[]
  const xs = points.map((p) => p[0])
  const ys = points.map((p) => p[1])
  const x0 = Math.min(...xs)
  const x1 = Math.max(...xs)
  const y0 = Math.min(...ys)
  const y1 = Math.max(...ys)
  // Four corners on the box's edges: a rectangle, not a diagonal shape.
  const onEdges = points.every(
    ([x, y]) =>
      (Math.abs(x - x0) <= SKEW || Math.abs(x - x1) <= SKEW) &&
      (Math.abs(y - y0) <= SKEW || Math.abs(y - y1) <= SKEW),
  )
  if (!onEdges) return []
  const width = x1 - x0
  const height = y1 - y0
  if (dark && height <= MAX_RULE_WIDTH && width >= MIN_RULE_LENGTH) {
    return [{ x0, x1, y0: (y0 + y1) / 2, y1: (y0 + y1) / 2 }]
  }
  if (dark && width <= MAX_RULE_WIDTH && height >= MIN_RULE_LENGTH) {
    return [{ x0: (x0 + x1) / 2, x1: (x0 + x1) / 2, y0, y1 }]
  }
  // A shaded cell (header rows often are) borders its neighbours with its edges.
  if (width >= MIN_RULE_LENGTH && height >= MIN_RULE_LENGTH) {
    const corners: Point[] = [
      [x0, y0],
      [x1, y0],
      [x1, y1],
      [x0, y1],
      [x0, y0],
    ]
    return strokedRules(corners).map((rule) => ({ ...rule, edge: true }))
  }
  return []
}
