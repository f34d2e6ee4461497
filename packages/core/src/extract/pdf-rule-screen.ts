/**
 * Whether a page's drawing can hold a ruled grid at all, read from its content streams' path
 * operators alone (text, colours and images skipped). pdf.js's operator list, which
 * pdf-grid-reader.ts reads for the grids themselves, evaluates every text operator too and costs
 * about as much as the page's text; most pages it is read for draw no grid.
 *
 * The answer is a bound, not the grids: every rule `pageRules` can find is among the candidates
 * here (colour is ignored, so any painted line may be dark; thresholds are widened a little for
 * pdf.js's single-precision coordinates), and `findGrids` needs horizontal and vertical rules
 * that meet and part cells (see mayFormGrid). So `false` is certain; `true` means read the
 * operator list. Anything the screen does not follow (inline images, a transform inside a path,
 * a missing form) throws.
 */
import { ContentLexer } from './pdf-content-lexer.ts'
import { type PdfFile, PdfStream } from './pdf-file.ts'
import { REACH, SAME_LINE } from './pdf-grid.ts'
import { MAX_RULE_WIDTH, MIN_RULE_LENGTH, SKEW, multiply, type Matrix } from './pdf-rules.ts'
import { PdfName, PdfRef, type PdfDict, type PdfValue } from './pdf-syntax.ts'

/** Slack for pdf.js's Float32 path coordinates against ours in doubles. */
const SLACK = 0.05
/**
 * How far apart a horizontal and a vertical piece may be and still end up in rules that meet:
 * merging joins pieces up to REACH apart along a line and SAME_LINE across it.
 */
const MEET = REACH + SAME_LINE + SLACK
/** The operators the screen follows: graphics state, path construction and painting, forms. */
const READ = 'q Q cm m l c v y h re BI Do S s f F f* B B* b b* n'.split(' ')
/** Beyond this many candidate pieces the screen does not work out their sets (pdf.js does). */
const MAX_CANDIDATES = 3000
/** Forms drawn inside forms deeper than this are not followed. */
const MAX_DEPTH = 12

interface Candidates {
  /** Horizontal pieces as [y, x0, x1], vertical ones as [x, y0, y1]. */
  horizontal: number[][]
  vertical: number[][]
}

type Point = [number, number]
const IDENTITY: Matrix = [1, 0, 0, 1, 0, 0]

/** False when the page (a reference from pdf.js's `page.ref`) can hold no ruled grid. */
export async function mayHoldGrid(file: PdfFile, pageRef: { num: number; gen: number }) {
  const page = await file.fetch(new PdfRef(pageRef.num, pageRef.gen))
  if (!(page instanceof Map)) throw new Error('page is not a dictionary')
  const found: Candidates = { horizontal: [], vertical: [] }
  const contents = await file.resolve(page.get('Contents'))
  const streams = Array.isArray(contents) ? contents : contents === undefined ? [] : [contents]
  const parts: Uint8Array[] = []
  for (const part of streams) {
    const stream = await file.resolve(part)
    if (!(stream instanceof PdfStream)) throw new Error('contents are not a stream')
    parts.push(await file.decode(stream))
  }
  await scan(file, joined(parts), await inheritedResources(file, page), IDENTITY, found, 0)
  return mayFormGrid(found)
}

/**
 * Whether the candidates can make a grid as `findGrids` does: a set of horizontal and vertical
 * lines joined by meeting, three or more, spanning three column and three row edges. Pieces are
 * joined more loosely than rules are (merging joins collinear pieces, and a merged line meets
 * where any of its pieces nearly does), so every grid's pieces fall in one set here; a set's
 * pieces' ends and positions hold at least as many distinct edges as the grid's.
 */
function mayFormGrid({ horizontal, vertical }: Candidates): boolean {
  const count = horizontal.length + vertical.length
  if (count < 3) return false
  if (count > MAX_CANDIDATES) return true
  const parent = Array.from({ length: count }, (_, i) => i)
  const find = (i: number): number => (parent[i] === i ? i : (parent[i] = find(parent[i]!)))
  const join = (a: number, b: number) => {
    parent[find(a)] = find(b)
  }
  const h = horizontal.length
  horizontal.forEach(([y, x0, x1], i) => {
    vertical.forEach(([x, y0, y1], j) => {
      if (x! >= x0! - MEET && x! <= x1! + MEET && y! >= y0! - MEET && y! <= y1! + MEET) {
        join(i, h + j)
      }
    })
  })
  for (const [list, offset] of [
    [horizontal, 0],
    [vertical, h],
  ] as const) {
    list.forEach(([at, from, to], i) => {
      for (let k = i + 1; k < list.length; k++) {
        const [at2, from2, to2] = list[k]!
        const collinear = Math.abs(at! - at2!) <= 2 * SAME_LINE + SLACK
        if (collinear && from2! <= to! + REACH + SLACK && from! <= to2! + REACH + SLACK) {
          join(offset + i, offset + k)
        }
      }
    })
  }
  const sets = new Map<number, { h: number; v: number; xs: number[]; ys: number[] }>()
  const setOf = (i: number) => {
    let set = sets.get(find(i))
    if (!set) sets.set(find(i), (set = { h: 0, v: 0, xs: [], ys: [] }))
    return set
  }
  horizontal.forEach(([y, x0, x1], i) => {
    const set = setOf(i)
    set.h++
    set.xs.push(x0!, x1!)
    set.ys.push(y!)
  })
  vertical.forEach(([x, y0, y1], j) => {
    const set = setOf(h + j)
    set.v++
    set.xs.push(x!)
    set.ys.push(y0!, y1!)
  })
  return [...sets.values()].some(
    (set) =>
      set.h > 0 && set.v > 0 && set.h + set.v >= 3 && edges(set.xs) >= 3 && edges(set.ys) >= 3,
  )
}

/**
 * The most values lying pairwise further apart than `distinct` in pdf-grid.ts requires (taken
 * greedily from the smallest, which is the most there can be): never fewer than it keeps of any
 * subset, within the slack.
 */
function edges(values: number[]): number {
  let count = 0
  let last = -Infinity
  for (const value of values.toSorted((a, b) => a - b)) {
    if (value - last > SAME_LINE - 2 * SLACK) {
      count++
      last = value
    }
  }
  return count
}

async function inheritedResources(file: PdfFile, page: PdfDict): Promise<PdfDict | undefined> {
  let node: PdfDict | undefined = page
  for (let depth = 0; node && depth < 64; depth++) {
    const resources = await file.resolve(node.get('Resources'))
    if (resources instanceof Map) return resources
    const parent = await file.resolve(node.get('Parent'))
    node = parent instanceof Map ? parent : undefined
  }
  return undefined
}

/** A page's content streams are one sequence of operators, split anywhere between tokens. */
function joined(parts: Uint8Array[]): Uint8Array {
  if (parts.length === 1) return parts[0]!
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length + 1, 0))
  let at = 0
  for (const part of parts) {
    out.set(part, at)
    out[at + part.length] = 10
    at += part.length + 1
  }
  return out
}

async function scan(
  file: PdfFile,
  data: Uint8Array,
  resources: PdfDict | undefined,
  start: Matrix,
  found: Candidates,
  depth: number,
): Promise<void> {
  if (depth > MAX_DEPTH) throw new Error('forms nested too deeply')
  const lexer = new ContentLexer(data, READ)
  const stack: Matrix[] = []
  let ctm = start
  let path: (Point | null)[][] = []
  let current: (Point | null)[] = []
  const toPage = (x: number, y: number): Point => [
    ctm[0] * x + ctm[2] * y + ctm[4],
    ctm[1] * x + ctm[3] * y + ctm[5],
  ]
  // The point the operator's last two operands give.
  const at = () => toPage(lexer.number(1), lexer.number(0))
  for (let op = lexer.next(); op !== undefined; op = lexer.next()) {
    switch (op) {
      case 'q':
      case 'Q':
      case 'cm':
        // pdf.js applies the transform current when the path is painted; we apply it as built.
        if (path.length > 0 || current.length > 0) {
          throw new Error('graphics state changed inside a path')
        }
        if (op === 'q') stack.push(ctm)
        else if (op === 'Q') ctm = stack.pop() ?? ctm
        else ctm = multiply(ctm, [5, 4, 3, 2, 1, 0].map((k) => lexer.number(k)) as Matrix)
        break
      case 'm':
        if (current.length > 0) path.push(current)
        current = [at()]
        break
      case 'l':
        current.push(at())
        break
      case 'c':
      case 'v':
      case 'y':
        current.push(null, at())
        break
      case 'h':
        if (current[0]) current.push(current[0])
        break
      case 're': {
        const [x, y, w, h] = [3, 2, 1, 0].map((k) => lexer.number(k)) as [
          number,
          number,
          number,
          number,
        ]
        // As pdf.js builds it: a move, three lines and a close, which later lines continue.
        if (current.length > 0) path.push(current)
        current = [toPage(x, y), toPage(x + w, y), toPage(x + w, y + h), toPage(x, y + h)]
        current.push(current[0]!)
        break
      }
      case 'BI':
        throw new Error('inline image')
      case 'Do':
        await drawForm(file, lexer.lastName(), resources, ctm, found, depth)
        break
      default:
        // A painting operator ends the path.
        if (current.length > 0) path.push(current)
        paint(op, path, found)
        path = []
        current = []
    }
  }
}

/** A form's matrix, six numbers. */
function matrixOf(value: PdfValue[]): Matrix {
  if (value.length !== 6 || value.some((v) => typeof v !== 'number')) throw new Error('bad matrix')
  return value as Matrix
}

async function drawForm(
  file: PdfFile,
  name: string,
  resources: PdfDict | undefined,
  ctm: Matrix,
  found: Candidates,
  depth: number,
): Promise<void> {
  const xobjects = resources && (await file.resolve(resources.get('XObject')))
  if (!(xobjects instanceof Map)) throw new Error('unknown XObject')
  const form = await file.resolve(xobjects.get(name))
  if (!(form instanceof PdfStream)) throw new Error('unknown XObject')
  const subtype = form.dict.get('Subtype')
  if (!(subtype instanceof PdfName)) throw new Error('XObject without subtype')
  if (subtype.name !== 'Form') return
  const matrix = await file.resolve(form.dict.get('Matrix'))
  const own = await file.resolve(form.dict.get('Resources'))
  await scan(
    file,
    await file.decode(form),
    own instanceof Map ? own : resources,
    Array.isArray(matrix) ? multiply(ctm, matrixOf(matrix)) : ctm,
    found,
    depth + 1,
  )
}

/**
 * The pieces of painted subpaths `pageRules` could read as lines: stroked straight segments
 * (closing segments included), and filled rectangles thin enough to be lines.
 */
function paint(op: string, path: (Point | null)[][], found: Candidates): void {
  const stroked = op !== 'f' && op !== 'F' && op !== 'f*' && op !== 'n'
  const filled = op === 'f' || op === 'F' || op === 'f*' || op === 'B'
  for (const subpath of path) {
    if (stroked) {
      const points = op === 's' || op === 'b' || op === 'b*' ? [...subpath, subpath[0]!] : subpath
      for (let k = 1; k < points.length; k++) {
        const [a, b] = [points[k - 1], points[k]]
        if (a && b) segment(a, b, found)
      }
    }
    if (filled) thinRectangle(subpath, found)
  }
}

function segment([ax, ay]: Point, [bx, by]: Point, found: Candidates): void {
  if (Math.abs(ay - by) <= SKEW + SLACK && Math.abs(ax - bx) >= MIN_RULE_LENGTH - SLACK) {
    found.horizontal.push([(ay + by) / 2, Math.min(ax, bx), Math.max(ax, bx)])
  } else if (Math.abs(ax - bx) <= SKEW + SLACK && Math.abs(ay - by) >= MIN_RULE_LENGTH - SLACK) {
    found.vertical.push([(ax + bx) / 2, Math.min(ay, by), Math.max(ay, by)])
  }
}

function thinRectangle(subpath: (Point | null)[], found: Candidates): void {
  if (subpath.length < 3 || subpath.length > 6 || subpath.includes(null)) return
  const points = subpath as Point[]
  const xs = points.map((p) => p[0])
  const ys = points.map((p) => p[1])
  const [x0, x1, y0, y1] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)]
  const near = (v: number, a: number, b: number) =>
    Math.abs(v - a) <= SKEW + SLACK || Math.abs(v - b) <= SKEW + SLACK
  if (!points.every(([x, y]) => near(x, x0, x1) && near(y, y0, y1))) return
  const [width, height] = [x1 - x0, y1 - y0]
  if (height <= MAX_RULE_WIDTH + SLACK && width >= MIN_RULE_LENGTH - SLACK) {
    found.horizontal.push([(y0 + y1) / 2, x0, x1])
  } else if (width <= MAX_RULE_WIDTH + SLACK && height >= MIN_RULE_LENGTH - SLACK) {
    found.vertical.push([(x0 + x1) / 2, y0, y1])
  }
}
