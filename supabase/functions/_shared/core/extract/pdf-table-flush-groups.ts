// Generated from packages/core/src/extract/pdf-table-flush-groups.ts by `npm run sync:core`: edit that file, not this one.
import type { Segment } from './pdf-lines.ts'

/** A run of columns under one title (pdf-table-headers.ts's unit). */
interface Unit {
  from: number
  to: number
  x0: number
  x1: number
}

/**
 * Group titles set flush with an edge of their group rather than centred over it (Verizon's
 * right-aligned "Pension" over 2021 2020 2019, "Health Care and Life" over the next three): each
 * of the row's titles ends where a title of the row under it ends (or each starts where one
 * starts), and the runs of units they so bound take in every unit, two or more a run, with the
 * same titles under each run, and no two of the row's titles alike. The same titles repeated
 * under each tells group titles from most first lines of wrapped titles, which line up with the
 * title under them too (the caller also asks that the row be no closer to the titles under it
 * than the table's leading). Undefined when the row is not so.
 *
 * `under` is the row of titles under this one, `titleOf` the text a unit has under it.
 */
export function flushGroups(
  over: readonly Segment[],
  units: readonly Unit[],
  under: readonly Segment[],
  titleOf: (unit: Unit) => string,
  tolerance: number,
): { text: string; unit: Unit; own: false }[] | undefined {
  // Groups' titles tell them apart: one text over each run ("Percent of" over Dollars | Total,
  // for each year) is the first line of a wrapped title ("Percent of Total"), said again.
  const distinct = new Set(over.map((s) => s.text)).size === over.length
  if (over.length < 2 || under.length === 0 || !distinct) return undefined
  const titles = over.toSorted((a, b) => a.x0 - b.x0)
  return (
    flushAt('x1', titles, units, under, titleOf, tolerance) ??
    flushAt('x0', titles, units, under, titleOf, tolerance)
  )
}

function flushAt(
  edge: 'x0' | 'x1',
  titles: readonly Segment[],
  units: readonly Unit[],
  under: readonly Segment[],
  titleOf: (unit: Unit) => string,
  tolerance: number,
) {
  // The unit each title is flush with: the one holding the title under it at the same edge.
  const flush = titles.map((title) => {
    const below = under.find((s) => Math.abs(s[edge] - title[edge]) <= tolerance)
    return below ? units.findIndex((u) => u.x0 <= below.x0 && below.x1 <= u.x1) : -1
  })
  if (flush.some((u, k) => u < 0 || (k > 0 && u <= flush[k - 1]!))) return undefined
  // Flush right, a title ends its run; flush left, it starts it.
  const runs =
    edge === 'x1'
      ? flush.map((u, k) => [k === 0 ? 0 : flush[k - 1]! + 1, u] as const)
      : flush.map(
          (u, k) => [u, k + 1 < flush.length ? flush[k + 1]! - 1 : units.length - 1] as const,
        )
  if (runs[0]![0] !== 0 || runs.at(-1)![1] !== units.length - 1) return undefined
  const names = runs.map(([p, q]) => units.slice(p, q + 1).map(titleOf))
  const same = (a: string[]) =>
    a.length === names[0]!.length && a.every((n, i) => n === names[0]![i])
  if (names[0]!.length < 2 || names[0]!.some((n) => n === '') || !names.every(same))
    return undefined
  const within = titles.every((title, k) => {
    const [p, q] = runs[k]!
    return title.x0 >= units[p]!.x0 - tolerance && title.x1 <= units[q]!.x1 + tolerance
  })
  if (!within) return undefined
  return titles.map((title, k) => {
    const [p, q] = runs[k]!
    const unit = {
      from: units[p]!.from,
      to: units[q]!.to,
      x0: Math.min(units[p]!.x0, title.x0),
      x1: Math.max(units[q]!.x1, title.x1),
    }
    return { text: title.text, unit, own: false as const }
  })
}
