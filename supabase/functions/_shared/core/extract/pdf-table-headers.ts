// Generated from packages/core/src/extract/pdf-table-headers.ts by `npm run sync:core`: edit that file, not this one.
import type { PositionedLine, Segment } from './pdf-lines.ts'
import { flushGroups } from './pdf-table-flush-groups.ts'

/** A column's x range. */
export interface Column {
  x0: number
  x1: number
}

/** Column titles found above a table's first line, and the section labels between. */
export interface StackedHeader {
  /** Per column, its titles top-down (a title over a group of columns is in each of them). */
  titles: string[][]
  /** Label-only lines between the titles and the first row ("ASSETS"), top-down: body rows. */
  labels: string[]
  /** The lines taken into the table: they leave the page's prose. */
  used: PositionedLine[]
  /** A title over every figure column: the table's caption, a line of its own above it. */
  caption: PositionedLine[]
  /** Titles over no column, left to right: columns no row fills, each to be added, empty. */
  empty: Segment[]
}

/** Column titles are short; a longer text over the figures is a caption or prose. */
const MAX_TITLE_WORDS = 8
/** Lines further apart than this many font sizes are not one stack of titles. */
const MAX_ROW_GAP = 4.5
/** Narrow columns wrap their titles over up to six lines, under group titles and a caption. */
const MAX_TITLE_ROWS = 10
/** Lines of the label column's title between title rows. */
const MAX_STUB_ROWS = 2
/** A group title sits further above its columns' titles than the table's leading, by this. */
const GROUP_GAP = 1.1
/** Lines of one wrapped title line up to within this many font sizes (at left, right or centre). */
const ALIGNED = 0.1
/** Positions drawn alike may differ by this fraction (rounding). */
const ROUNDING = 0.02
/** A group title's columns are no further from it than this many times its width (or that of
 * the columns it overlaps). */
const REACH = 1.5
/** A unit this many times nearer another title than a group title is that title's. */
const CLEARLY = 2
/** Runs of columns whose centres are this close (points) are centred alike. */
const EVEN = 0.5
const AMOUNT = /^[(\-–−]?[$€£¥]?\d[\d,.]*\)?%?$/
/** A year as a column title has it ("2023", "FY2023"): a figure that is not an amount. */
export const YEAR = /^(?:fy\s?)?(?:19|20)\d\d$/i
/** A text naming a year ("2021", "May 26, 2019", "fiscal 2019"). */
const NAMES_YEAR = /\b(?:19|20)\d\d\b/

const words = (text: string) => text.split(' ').filter(Boolean).length

/**
 * The column titles stacked over a table in lines of their own (filings set "2023" over its
 * "Amount" and "Percent to Sales" columns, dates over two lines): climbing from the table's first
 * line, each row of lines (by baseline, whatever their content order) whose texts over the
 * figures are short titles. Each title takes the columns nearer to it than to the row's other
 * titles if it is centred over them (a group title), else those it overlaps; a row above groups
 * the groups of the row below. A row with anything else (prose, an amount, a text across the
 * label and figure columns) ends the climb, as does a wide gap; label-only lines are kept only
 * between titles and the table.
 *
 * `label` is the index of the row-label column; columns after it hold the figures. `pitch` is
 * the least step between the table's baselines. `figures`
 * says they do (else the table is of text, whose lines above may be its rows drawn elsewhere).
 */
export function stackedHeader(
  top: PositionedLine,
  columns: readonly Column[],
  label: number,
  free: readonly PositionedLine[],
  pitch: number,
  figures = true,
): StackedHeader {
  const titles: string[][] = columns.map(() => [])
  const none = { titles, labels: [], used: [], caption: [], empty: [] }
  if (label + 1 >= columns.length) return none
  const used: PositionedLine[] = []
  const pending: PositionedLine[] = []
  let labels: string[] = []
  let units: Unit[] = columns.slice(label + 1).map((column, k) => ({
    ...column,
    from: label + 1 + k,
    to: label + 1 + k,
  }))
  let lastY = top.y
  /** The least step down from a line to the next, in the table or a column's titles. */
  let leading = pitch
  let rows = 0
  let caption: PositionedLine[] = []
  let empty: Segment[] = []
  /** The top title row's text when it is one title said over each group (see below). */
  let repeated = ''
  /** The last row's titles over the figures. */
  let under: Segment[] = []
  /** Stub-only rows met above a title row, held until a title row above claims them. */
  const stubRows: PositionedLine[][] = []
  // Lines wholly beside the table (the page's other column) are none of its business.
  const [left, right] = [columns[0]!.x0 - top.size, columns.at(-1)!.x1 + 2 * top.size]
  const labelRight = columns[label]!.x1
  // The label column's own title starts over its labels and stops short of the figures; a title
  // right of the labels ("Number" left of its right-aligned figures) is its column's.
  const inStub = (s: Segment) => s.x0 < labelRight && s.x1 < columns[label + 1]!.x0
  const beside = ({ segments }: PositionedLine) =>
    Math.max(...segments.map((s) => s.x1)) < left || Math.min(...segments.map((s) => s.x0)) > right
  for (const row of rowsAbove(
    top,
    free.filter((line) => !beside(line)),
  )) {
    const size = Math.max(top.size, ...row.map((line) => line.size))
    if (row[0]!.y - lastY > MAX_ROW_GAP * size || rows === MAX_TITLE_ROWS) break
    // Set off from the titles under it further than the table steps from line to line (a rule
    // runs between), a title may head a group of them; one a step above the next line of its
    // column is as likely the first line of a wrapped title.
    const steps = new Map(
      row.flatMap((line) =>
        line.segments.map((s) => [s, stepDown(line, s, [top, ...used])] as const),
      ),
    )
    // A wrapped title's lines line up (left, right or centred alike): a line further above the
    // titles under it than a row step, lined up with none of them, is no title's first line.
    const setOff = (s: Segment) => {
      if (rows === 0) return false
      const step = steps.get(s)!
      if (step > GROUP_GAP * leading) return true
      return step > leading && !used.some((line) => line.segments.some((t) => lineUp(s, t, size)))
    }
    // Lined up with a title under it and no further above it than the table's lines are apart,
    // a line may be that title's first.
    const wraps = (s: Segment) =>
      rows > 0 &&
      steps.get(s)! <= leading * (1 + ROUNDING) &&
      used.some((line) => line.segments.some((t) => lineUp(s, t, size)))
    lastY = row[0]!.y
    const segments = row.flatMap((line) => line.segments)
    // A units note ("(dollars in millions)") heads the label column wherever it sits (but see
    // below).
    let stub = segments.filter((s) => inStub(s) || UNITS.test(s.text))
    let over = segments.filter((s) => !stub.includes(s))
    if (stub.some((s) => s.x0 < left)) break
    if (over.length === 0 && rows > 0 && stub.every((s) => UNITS.test(s.text))) {
      titles[label]!.unshift(stub.map((s) => s.text).join(' '))
      used.push(...row)
      continue
    }
    if (over.length === 0 && rows > 0 && figures && stubRows.length < MAX_STUB_ROWS) {
      // A line of the label column's own title ("In Millions, Except Per / Share Amounts")
      // between title rows: it is the stub's if a title row follows above it, else prose. Over
      // a text table such a line is as likely a wrapped row's, drawn out of order.
      stubRows.push(row)
      continue
    }
    if (over.length === 0) {
      // Label lines ("ASSETS", "Current assets:") between the titles and the first row.
      if (rows > 0 || stub.some((s) => words(s.text) > MAX_TITLE_WORDS * 2)) break
      pending.push(...row)
      continue
    }
    if (over.some((s) => !isTitle(s, columns[label]!))) break
    // A title clear of every column by its own width or more, in the row right over the table,
    // heads a column no row fills (a checklist's never-ticked column): it becomes one, empty.
    const clear = rows > 0 ? [] : over.filter((s) => units.every((u) => gap(u, s) >= s.x1 - s.x0))
    if (clear.length > 0 && clear.length < over.length) {
      over = over.filter((s) => !clear.includes(s))
      empty = clear
    }
    // A units note among the row's titles is one of them where it places as one ("Carrying
    // value / (in millions)" over two columns, "Shares" beside it).
    const notes = stub.filter((s) => s.x1 >= columns[label + 1]!.x0 && isTitle(s, columns[label]!))
    const titleOf = (unit: Unit) => titles[unit.from]![0] ?? ''
    const dated = (unit: Unit) => NAMES_YEAR.test(titleOf(unit))
    const place = (titles: Segment[]) =>
      placeTitles(titles, units, labelRight, size, { setOff, wraps, dated })
    // Lines of a wrapped title may be set closer than the table's rows; a group's title is a
    // row of its own.
    const apart = over.every((s) => steps.get(s)! * (1 + ROUNDING) >= leading)
    const flush = apart && flushGroups(over, units, under, titleOf, ALIGNED * size)
    const withNotes = !flush && notes.length > 0 && place([...over, ...notes])
    const placed = flush || withNotes || place(over)
    if (!placed) break
    under = over
    for (const step of steps.values()) leading = Math.min(leading, step)
    if (withNotes) stub = stub.filter((s) => !notes.includes(s))
    // Over group titles, a lone title heads them all, or it is the page's (a centred heading).
    const [lone] = placed
    const partial = lone!.unit.from > units[0]!.from || lone!.unit.to < units.at(-1)!.to
    const grouped = units.some((unit) => unit.to > unit.from)
    if (grouped && placed.length === 1 && partial && !lone!.own) break
    // A lone title over every figure column ("Year Ended December 31," over the years) is the
    // table's caption: a line above the table, said once. Repeated in each column's title, a
    // passage would hold it once a column, which weighs its words in search.
    if (placed.length === 1 && !partial && columns.length - label > 2 && !lone!.own) {
      caption = row.toSorted((a, b) => a.segments[0]!.x0 - b.segments[0]!.x0)
      break
    }
    for (const { text, unit } of placed) {
      for (let c = unit.from; c <= unit.to; c++) titles[c]!.unshift(text)
    }
    // One title said again over each group of figure columns, the groups all of them: the
    // caption if no row is placed above it (under different group titles, "Fiscal Year" is part
    // of each). Over single columns it is a title's first line ("Percent of") as often.
    const covered = placed.reduce((n, p) => n + p.unit.to - p.unit.from + 1, 0)
    const again =
      figures &&
      placed.length > 1 &&
      placed.every((p) => p.text === lone!.text && p.unit.to > p.unit.from)
    repeated = again && covered === units.at(-1)!.to - units[0]!.from + 1 ? lone!.text : ''
    for (const held of stubRows.splice(0)) {
      titles[label]!.unshift(held.map((line) => line.text).join(' '))
      used.push(...held)
    }
    if (stub.length > 0) titles[label]!.unshift(stub.map((s) => s.text).join(' '))
    units = regroup(units, placed)
    if (rows === 0) {
      // A units note under the titles heads the labels too.
      const [notes, others] = partition(pending, (line) => UNITS.test(line.text))
      titles[label]!.push(...notes.map((line) => line.text))
      labels = others.toSorted((a, b) => b.y - a.y).map((line) => line.text)
    }
    used.push(...row, ...pending.splice(0))
    rows++
  }
  if (repeated && caption.length === 0) {
    // Said once above the table, as a lone title over every column is (above).
    for (const column of titles) if (column[0] === repeated) column.shift()
    caption = [{ ...top, text: repeated }]
  }
  return rows === 0 ? { ...none, caption } : { titles, labels, used, caption, empty }
}

/** A parenthesised units note: "(in millions)", "($ in thousands)", "(In Millions, Except…)". */
const UNITS = /^\((?:[^()]*\s)?in\s[^()]+\)$/i
const MARK = /^(?:\(\w{1,2}\)|\*{1,3}|†|‡)$/

/** Short, not an amount (a row of another table), clear of the label column. */
const isTitle = (segment: Segment, labelColumn: Column) =>
  words(segment.text) <= MAX_TITLE_WORDS &&
  (!AMOUNT.test(segment.text) || YEAR.test(segment.text)) &&
  segment.x0 > labelColumn.x1

/**
 * The free lines above the top line, grouped by baseline, nearest row first. Those on its own
 * baseline come first: the rest of a title row the content stream drew in several lines.
 */
function rowsAbove(top: PositionedLine, free: readonly PositionedLine[]): PositionedLine[][] {
  const above = free.filter((line) => line.y > top.y - top.size * 0.3).sort((a, b) => a.y - b.y)
  const rows: PositionedLine[][] = []
  for (const line of above) {
    const row = rows.at(-1)
    if (row && line.y - row[0]!.y <= line.size * 0.3) row.push(line)
    else rows.push([line])
  }
  return rows
}

/** How far a line's segment is above the nearest title line under it that it overlaps. */
function stepDown(line: PositionedLine, segment: Segment, titles: readonly PositionedLine[]) {
  let under = -Infinity
  for (const title of titles) {
    if (title.y >= line.y || title.y <= under) continue
    if (title.segments.some((s) => gap(s, segment) === 0)) under = title.y
  }
  return line.y - under
}

/** Whether two overlapping texts start, end or are centred alike (to within ALIGNED sizes). */
const lineUp = (a: Column, b: Column, size: number) =>
  gap(a, b) === 0 &&
  Math.min(Math.abs(a.x0 - b.x0), Math.abs(a.x1 - b.x1), Math.abs(centre(a) - centre(b))) <=
    ALIGNED * size

/** A column, or a group of them under one title: its columns and the extent of its texts. */
interface Unit extends Column {
  from: number
  to: number
}

interface Placed {
  text: string
  /** Placed as its own column's (centred within it, or a footnote mark), not a group's. */
  own: boolean
  /** The units it spans, merged. */
  unit: Unit
}

/** What a row's titles are tested by as they are placed (see stackedHeader). */
interface RowTests {
  /** Set off from the titles under it: it may head a group of them. */
  setOff: (title: Segment) => boolean
  /** Lined up with a title under it, a leading above: it may be that title's first line. */
  wraps: (title: Segment) => boolean
  /** The unit's title under this row names a year ("2021", "May 26, 2019"). */
  dated: (unit: Unit) => boolean
}

const gap = (a: Column, b: Column) => Math.max(0, a.x0 - b.x1, b.x0 - a.x1)
const centre = (a: Column) => (a.x0 + a.x1) / 2

/**
 * The row's titles over the units. A title centred within one unit's extent is that unit's (but
 * in a row of group titles, see groupRow, it may head a group as the others do); else each
 * unit goes to its nearest title, and a title keeps those if it is centred over them (a group
 * title), else only the units it overlaps. A title `setOff` above the titles under it that is
 * centred over a run of units near it, none clearly another title's, heads them all though it
 * fits within the middle one ("% Change" over "Reported | Operational | Currency"). Undefined
 * when a title has none or reaches past halfway to the units beside its own.
 */
function placeTitles(
  over: Segment[],
  units: readonly Unit[],
  labelRight: number,
  size: number,
  { setOff, wraps, dated }: RowTests,
): Placed[] | undefined {
  const sorted = over.toSorted((a, b) => a.x0 - b.x0)
  const nearest = units.map((unit) => {
    const distance = (t: Segment) => gap(unit, t) + Math.abs(centre(unit) - centre(t)) / 1000
    return sorted.reduce((best, t, k) => (distance(t) < distance(sorted[best]!) ? k : best), 0)
  })
  const placed: Placed[] = []
  const slack = size * 0.5
  const centred = (title: Segment, span: Unit) =>
    Math.abs(centre(span) - centre(title)) <= Math.max(size, (span.x1 - span.x0) * 0.05)
  // Each title's units it is centred within (a title centred within one unit's texts is that
  // unit's, however far the others are), and the run of two units or more nearest it, if it is
  // centred over them.
  const withins = sorted.map((title) =>
    units.filter((u) => u.x0 - slack <= title.x0 && title.x1 <= u.x1 + slack && centred(title, u)),
  )
  const runs = sorted.map((title, k) => {
    const mine = units.filter((_, u) => nearest[u] === k)
    const run = mine.length > 1 && mine.at(-1)!.to - mine[0]!.from + 1 === mine.length
    return run && centred(title, merge(mine)) ? mine : undefined
  })
  // A row of group titles: one too wide for any unit heads those nearest it. A short title of
  // that row centred within one unit and over those nearest it as well ("Corporate" between
  // "Asset & Wealth Management" and "Total", each over 2021 | 2020 | Change) heads them too.
  const groupRow = sorted.some((_, k) => withins[k]!.length === 0 && runs[k])
  const everyGroup = runs.every(Boolean)
  for (const [k, title] of sorted.entries()) {
    const centredOn = (span: Unit) => centred(title, span)
    const within = withins[k]!
    // A row's only title, centred over the whole table, spans it (the middle column's centre
    // is the table's too when the columns are odd in number); but within a group of columns, it
    // may be the first line of the group's title it `wraps` ("Other Postretirement Benefit" over
    // "Plans"), which a title over the whole table would not fit.
    const inGroup = within.length === 1 && within[0]!.to > within[0]!.from
    const alone = sorted.length === 1 && centredOn(merge(units)) && !(inGroup && wraps(title))
    const after = placed.at(-1)?.unit.to ?? -Infinity
    const run = groupRow && within.length === 1 ? runs[k] : undefined
    let own = within.length === 1 && !alone && !run
    let mine = run ?? (own ? within : units.filter((_, u) => nearest[u] === k))
    // The first line of a title wrapped over its column ("Percent of" over "Total", for each
    // year) heads that column alone, however centred it happens to be over the columns nearest
    // it; unless each title of the row is so centred over its own (dates over Avg. | Min | Max
    // each). A row's only title centred within the middle column and so over every column
    // ("Accumulated" over "Amortization and Impairment") is taken as a wrapped title's first
    // line too, unless a year is named in it or under it ("Fiscal Year" over "2021"): then it
    // is the table's caption, as is one wider than the middle column ("Payments due by Period"
    // over Total | Next 12 Months | Beyond 12 Months).
    if (!own && !run && wraps(title) && !setOff(title)) {
      const overlapped = widestCentred(units, title, () => false)
      const wrapped =
        sorted.length > 1
          ? !everyGroup
          : alone && within.length === 1 && !NAMES_YEAR.test(title.text) && !overlapped.some(dated)
      if (wrapped) mine = overlapped
    }
    if (MARK.test(title.text)) {
      // A footnote mark ("(a)", set a little higher) belongs to the title it ends, not a group.
      const closest = Math.min(...units.map((unit) => gap(unit, title)))
      mine = units.filter((unit) => gap(unit, title) === closest).slice(0, 1)
      own = true
    } else if (own || mine.length === 0 || !centredOn(merge(mine)) || mine[0]!.from <= after) {
      // As a group's title it may take units up to those clearly nearer another title of the
      // row (half as far or less), and none the title before it took. (A row’s only title
      // not within a unit spreads below.)
      const open = (unit: Unit) =>
        unit.from > after &&
        sorted.every((t) => t === title || CLEARLY * gap(unit, t) >= gap(unit, title))
      const asGroup = setOff(title) && (own || sorted.length > 1)
      const group = asGroup ? groupUnder(units, title, open, size) : []
      if (group.length > 1) {
        mine = group
        own = false
      } else if (!own) {
        // A row's only title may head a run of columns off the table's centre; among several,
        // each keeps to the columns it overlaps.
        mine = widestCentred(units, title, sorted.length === 1 ? centredOn : () => false)
      }
    }
    if (mine.length === 0) return undefined
    // Not past halfway to the neighbouring units (a page title is wider, a caption off-centre).
    const [p, q] = [units.indexOf(mine[0]!), units.indexOf(mine.at(-1)!)]
    const from = (units[p - 1]?.x1 ?? labelRight) / 2 + units[p]!.x0 / 2 - slack
    const to = q + 1 < units.length ? (units[q]!.x1 + units[q + 1]!.x0) / 2 + slack : Infinity
    if (title.x0 < from || title.x1 > to) return undefined
    const unit = merge([...mine, { ...mine[0]!, x0: title.x0, x1: title.x1 }])
    const last = placed.at(-1)
    // Two pieces of one title over the same columns (a gap inside it) are one title.
    if (last && unit.from <= last.unit.to) {
      placed[placed.length - 1] = {
        text: `${last.text} ${title.text}`,
        unit: merge([last.unit, unit]),
        own: false,
      }
    } else placed.push({ text: title.text, unit, own })
  }
  return placed
}

/**
 * The units a title overlaps, widened to the widest run around them it is centred over
 * ("Quarter" over four quarters' columns, centred between the second and third).
 */
function widestCentred(
  units: readonly Unit[],
  title: Segment,
  centredOn: (span: Unit) => boolean,
): Unit[] {
  const overlapped = units.flatMap((unit, u) => (gap(unit, title) === 0 ? [u] : []))
  if (overlapped.length === 0) return []
  const [first, last] = [overlapped[0]!, overlapped.at(-1)!]
  let best = [first, last]
  for (let p = 0; p <= first; p++) {
    for (let q = last; q < units.length; q++) {
      const wider = q - p > best[1]! - best[0]!
      if (wider && centredOn(merge(units.slice(p, q + 1)))) best = [p, q]
    }
  }
  return units.slice(best[0], best[1]! + 1)
}

/**
 * The run of two units or more, out from those the title overlaps through `open` ones near it, that the
 * title is centred over best, to within a size (over a wide run, a few points off centre would
 * take in the next group's columns). Evenly spaced columns centre several runs alike: of those,
 * the widest. Empty when there is none.
 */
function groupUnder(
  units: readonly Unit[],
  title: Segment,
  open: (unit: Unit) => boolean,
  size: number,
): Unit[] {
  const overlapped = units.flatMap((unit, u) => (gap(unit, title) === 0 ? [u] : []))
  if (overlapped.length === 0) return []
  const [first, last] = [overlapped[0]!, overlapped.at(-1)!]
  const core = merge([units[first]!, units[last]!, { ...units[first]!, ...title }])
  const near = (unit: Unit) => open(unit) && gap(unit, title) <= REACH * (core.x1 - core.x0)
  let [lo, hi] = [first, last]
  while (lo > 0 && near(units[lo - 1]!)) lo--
  while (hi + 1 < units.length && near(units[hi + 1]!)) hi++
  const runs: { run: Unit[]; off: number }[] = []
  for (let p = lo; p <= first; p++) {
    for (let q = Math.max(p + 1, last); q <= hi; q++) {
      const run = units.slice(p, q + 1)
      const off = Math.abs(centre(merge(run)) - centre(title))
      if (off <= size) runs.push({ run, off })
    }
  }
  const least = Math.min(...runs.map(({ off }) => off))
  const alike = runs.filter(({ off }) => off <= least + EVEN)
  return alike.reduce<Unit[]>((best, { run }) => (run.length > best.length ? run : best), [])
}

function partition<T>(items: readonly T[], test: (item: T) => boolean): [T[], T[]] {
  return [items.filter(test), items.filter((item) => !test(item))]
}

/** One unit covering the given ones. */
function merge(units: readonly Unit[]): Unit {
  // One loop, no arrays: placeTitles and widestCentred merge runs of units many times a row.
  const out = { from: Infinity, to: -Infinity, x0: Infinity, x1: -Infinity }
  for (const u of units) {
    out.from = Math.min(out.from, u.from)
    out.to = Math.max(out.to, u.to)
    out.x0 = Math.min(out.x0, u.x0)
    out.x1 = Math.max(out.x1, u.x1)
  }
  return out
}

/** The units for the row above: each title's units become one, the others stay. */
function regroup(units: readonly Unit[], placed: readonly Placed[]): Unit[] {
  const inside = (unit: Unit) =>
    placed.find((p) => p.unit.from <= unit.from && unit.to <= p.unit.to)
  const out: Unit[] = []
  for (const unit of units) {
    const title = inside(unit)
    if (!title) out.push(unit)
    else if (out.at(-1) !== title.unit) out.push(title.unit)
  }
  return out
}
