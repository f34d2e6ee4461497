/** A run of text under one heading: [start, end) of the document text, with its heading path. */
export interface Section {
  start: number
  end: number
  headingPath: string[]
}

const HEADING = /^(#{1,6})[ \t]+(.+?)[ \t#]*$/
const FENCE = /^\s{0,3}(```|~~~)/

/**
 * Splits Markdown at its ATX headings (outside code fences). A heading with nothing under it
 * before the next heading opens that next section instead, so no chunk is a bare heading.
 */
export function splitSections(text: string): Section[] {
  const sections: Section[] = []
  const stack: { level: number; title: string }[] = []
  let current: Section = { start: 0, end: text.length, headingPath: [] }
  let bodyEmpty = true
  let inFence = false
  let lineStart = 0
  while (lineStart <= text.length) {
    const newline = text.indexOf('\n', lineStart)
    const lineEnd = newline < 0 ? text.length : newline
    const line = text.slice(lineStart, lineEnd)
    if (FENCE.test(line)) inFence = !inFence
    const heading = inFence ? null : HEADING.exec(line)
    if (heading) {
      const level = heading[1]!.length
      while (stack.length > 0 && stack[stack.length - 1]!.level >= level) stack.pop()
      stack.push({ level, title: heading[2]!.trim() })
      const headingPath = stack.map((entry) => entry.title)
      if (bodyEmpty) current = { start: current.start, end: text.length, headingPath }
      else {
        sections.push({ ...current, end: lineStart })
        current = { start: lineStart, end: text.length, headingPath }
      }
      bodyEmpty = true
    } else if (line.trim() !== '') bodyEmpty = false
    lineStart = lineEnd + 1
  }
  sections.push(current)
  return sections.filter((section) => text.slice(section.start, section.end).trim() !== '')
}
