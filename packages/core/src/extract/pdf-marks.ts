import type { PositionedLine } from './pdf-lines.ts'

/** A footnote mark or superscript: one short run ("(a)", "(1)", "*", "2/3"), no spaces. */
const MARK = /^\S{1,6}$/
/** A mark is set this much smaller than the text it raises over, or smaller still. */
const MARK_SCALE = 0.8

/**
 * Puts raised marks back on the line they belong to. A superscript ("(a)" after a label, the "2/3"
 * of "$1.66 2/3") sits above its line's baseline in a smaller size, so pdf-lines.ts reads it as a
 * line of its own: a stray line wherever the content stream drew it, and when drawn mid-line,
 * one that cuts its line in two. Each mark joins the end of the word it follows (with a space
 * between two numbers, so "1.66" and "2/3" stay two), and the two halves of a line it cut
 * become one again. Lines that are not marks are returned as they were.
 */
export function attachMarks(lines: PositionedLine[]): PositionedLine[] {
  const hosts = new Map<PositionedLine, PositionedLine>()
  // Only a line set smaller than the page's largest can be a mark: most short lines are not.
  const largest = lines.reduce((max, line) => Math.max(max, line.size), 0)
  lines.forEach((line, k) => {
    const small = line.size <= largest * MARK_SCALE
    const host = small && isMark(line) ? hostOf(line, lines, k) : undefined
    if (host) hosts.set(line, host)
  })
  // Most pages have no mark drawn as a line of its own: nothing to copy there.
  if (hosts.size === 0) return lines
  const joined = new Map<PositionedLine, PositionedLine>()
  for (const [mark, host] of hosts) joined.set(host, withMark(joined.get(host) ?? host, mark))
  const out: PositionedLine[] = []
  /** Where each line went in `out` (a line a mark cut goes where its first part went). */
  const slot = new Map<PositionedLine, number>()
  lines.forEach((line, k) => {
    if (hosts.has(line)) return
    const own = joined.get(line) ?? line
    // Right after a mark that went to the line before it: the rest of that line, maybe.
    const cut = lines[k - 1] && hosts.get(lines[k - 1]!)
    const before = cut && slot.get(cut)
    if (before === out.length - 1 && continues(out[before]!, own)) {
      const first = out[before]!
      out[before] = {
        ...first,
        text: `${first.text} ${own.text}`,
        segments: [...first.segments, ...own.segments],
      }
      slot.set(line, before)
      return
    }
    slot.set(line, out.length)
    out.push(own)
  })
  return out
}

const isMark = (line: PositionedLine) => line.segments.length === 1 && MARK.test(line.text)

/**
 * The line a mark is raised over: a line set larger, whose baseline is below the mark's by less
 * than its size, with a word ending where the mark begins. The nearest such, by baseline.
 */
function hostOf(
  mark: PositionedLine,
  lines: PositionedLine[],
  index: number,
): PositionedLine | undefined {
  let best: PositionedLine | undefined
  let bestRise = Infinity
  const x0 = mark.segments[0]!.x0
  lines.forEach((line, k) => {
    if (k === index || line.size * MARK_SCALE < mark.size) return
    const rise = mark.y - line.y
    if (rise < -0.1 * line.size || rise > 0.8 * line.size || Math.abs(rise) >= bestRise) return
    const slack = line.size * 0.5
    if (line.segments.some((s) => Math.abs(x0 - s.x1) <= slack)) {
      best = line
      bestRise = Math.abs(rise)
    }
  })
  return best
}

/** The host line with the mark after the word it follows, and the gap it made closed. */
function withMark(host: PositionedLine, mark: PositionedLine): PositionedLine {
  const [{ x0, x1, text }] = mark.segments as [PositionedLine['segments'][0]]
  const slack = host.size * 0.5
  const segments = host.segments.map((s) => ({ ...s }))
  const at = segments.findIndex((s) => Math.abs(x0 - s.x1) <= slack)
  const word = segments[at]!
  const space = /\d$/.test(word.text) && /^\d/.test(text) ? ' ' : ''
  const joined = `${word.text}${space}${text}`
  // The host's text holds the word as read: the mark goes right after that occurrence of it,
  // found past the texts of the segments drawn before it (the word may be said twice on a line).
  let from = 0
  for (const before of segments.slice(0, at)) {
    const found = host.text.indexOf(before.text, from)
    if (found >= 0) from = found + before.text.length
  }
  const start = host.text.indexOf(word.text, from)
  const hostText =
    start < 0
      ? host.text.replace(word.text, joined)
      : host.text.slice(0, start) + joined + host.text.slice(start + word.text.length)
  segments[at] = { ...word, x1: Math.max(word.x1, x1), text: joined }
  const next = segments[at + 1]
  // The mark filled the gap it made: the word after it is the same cell's.
  if (next && next.x0 - x1 < host.size * 0.9 && next.x0 >= x1) {
    segments.splice(at, 2, { x0: word.x0, x1: next.x1, text: `${joined} ${next.text}` })
  }
  return { ...host, text: hostText, segments }
}

/** Whether `line` goes on `before` on its baseline, to its right: the rest a mark cut off. */
function continues(before: PositionedLine, line: PositionedLine): boolean {
  return (
    // The test pdf-lines.ts splits lines by: on it, the two were read as one but for the mark.
    Math.abs(line.y - before.y) <= Math.max(line.size, before.size) * 0.5 &&
    line.segments[0]!.x0 >= before.segments.at(-1)!.x1
  )
}
