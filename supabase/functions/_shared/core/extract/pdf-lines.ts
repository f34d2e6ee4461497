// Generated from packages/core/src/extract/pdf-lines.ts by `npm run sync:core`: edit that file, not this one.
/** The part of a pdf.js text item we use (TextMarkedContent items have no `str`). */
export interface PdfTextItem {
  str: string
  transform: number[]
  width: number
  height: number
  hasEOL: boolean
}

/**
 * Rebuilds a page's lines from pdf.js text items in content-stream order (which is reading order
 * for born-digital files): a baseline jump starts a new line, a horizontal gap becomes a space.
 */
export function itemsToLines(items: readonly object[]): string[] {
  const lines: string[] = []
  let line = ''
  let lastY = 0
  let lastEndX = 0
  let lastSize = 0
  for (const item of items) {
    if (!('str' in item)) continue
    const { str, transform, width, height, hasEOL } = item as PdfTextItem
    const x = transform[4] ?? 0
    const y = transform[5] ?? 0
    const size = height || Math.hypot(transform[2] ?? 0, transform[3] ?? 0)
    if (line !== '' && str !== '') {
      if (Math.abs(y - lastY) > Math.max(size, lastSize) * 0.5) {
        lines.push(line)
        line = ''
      } else if (x - lastEndX > size * 0.15 && !line.endsWith(' ') && !str.startsWith(' ')) {
        line += ' '
      }
    }
    if (str !== '') {
      line += str
      lastY = y
      lastEndX = x + width
      lastSize = size
    }
    if (hasEOL && line !== '') {
      lines.push(line)
      line = ''
    }
  }
  if (line !== '') lines.push(line)
  return lines.map((l) => l.replace(/\s+/g, ' ').trim()).filter((l) => l !== '')
}
