// Generated from packages/core/src/chunk/sections.ts by `npm run sync:core`: edit that file, not this one.
/** A run of text under one heading: [start, end) of the document text, with its heading path. */
export interface Section {
  start: number
  end: number
  headingPath: string[]
}

const ATX = /^ {0,3}(#{1,6})[ \t]+(.+?)[ \t#]*$/
const SETEXT_UNDERLINE = /^ {0,3}(=+|-+)[ \t]*$/
const NOT_A_PARAGRAPH = /^\s*(?:[-*+>|]|\d+[.)]\s|$)/
const FENCE = /^ {0,3}(```|~~~)/

/**
 * Splits Markdown at its headings: ATX (`## Title`) and setext (a one-line paragraph underlined
 * with === or ---), never inside code fences. A heading with nothing under it before the next
 * heading opens that next section instead, so no chunk is a bare heading.
 */
export function splitSections(text: string): Section[] {
  const lines = linesOf(text)
  const sections: Section[] = []
  const stack: { level: number; title: string }[] = []
  let current: Section = { start: 0, end: text.length, headingPath: [] }
  let bodyEmpty = true
  let inFence = false
  for (let i = 0; i < lines.length; i++) {
    const { start, line } = lines[i]!
    if (FENCE.test(line)) inFence = !inFence
    const heading = inFence ? undefined : headingAt(lines, i)
    if (!heading) {
      if (line.trim() !== '') bodyEmpty = false
      continue
    }
    while (stack.length > 0 && stack[stack.length - 1]!.level >= heading.level) stack.pop()
    stack.push(heading)
    const headingPath = stack.map((entry) => entry.title)
    if (!bodyEmpty) sections.push({ ...current, end: start })
    current = { start: bodyEmpty ? current.start : start, end: text.length, headingPath }
    bodyEmpty = true
    i += heading.lines - 1
  }
  sections.push(current)
  return sections.filter((section) => text.slice(section.start, section.end).trim() !== '')
}

function headingAt(lines: { line: string }[], i: number) {
  const line = lines[i]!.line
  const atx = ATX.exec(line)
  if (atx) return { level: atx[1]!.length, title: atx[2]!.trim(), lines: 1 }
  const underline = SETEXT_UNDERLINE.exec(lines[i + 1]?.line ?? '')
  const startsParagraph = i === 0 || lines[i - 1]!.line.trim() === ''
  if (underline && startsParagraph && !NOT_A_PARAGRAPH.test(line)) {
    return { level: underline[1]!.startsWith('=') ? 1 : 2, title: line.trim(), lines: 2 }
  }
  return undefined
}

function linesOf(text: string): { start: number; line: string }[] {
  const lines: { start: number; line: string }[] = []
  let start = 0
  for (const line of text.split('\n')) {
    lines.push({ start, line })
    start += line.length + 1
  }
  return lines
}
