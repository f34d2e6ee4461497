// Generated from packages/core/src/extract/pdf-cleanup.ts by `npm run sync:core`: edit that file, not this one.
/** How many lines at the top and at the bottom of a page can be a running header or footer. */
const EDGE_LINES = 3

/**
 * Drops running headers and footers: lines near the top or bottom of a page that repeat (digits
 * ignored, so "Page 3 of 9" matches "Page 4 of 9") on at least 40% of the pages of a 3+ page
 * file (40%, not half: books alternate left- and right-page headers).
 */
export function dropRunningLines(pages: string[][]): { pages: string[][]; dropped: number } {
  if (pages.length < 3) return { pages, dropped: 0 }
  const pagesWith = new Map<string, number>()
  for (const lines of pages) {
    for (const key of new Set(edgeIndexes(lines).map((i) => runningKey(lines[i]!)))) {
      pagesWith.set(key, (pagesWith.get(key) ?? 0) + 1)
    }
  }
  const threshold = Math.max(3, Math.ceil(pages.length * 0.4))
  let dropped = 0
  const cleaned = pages.map((lines) => {
    const drop = new Set(
      edgeIndexes(lines).filter((i) => (pagesWith.get(runningKey(lines[i]!)) ?? 0) >= threshold),
    )
    dropped += drop.size
    return lines.filter((_, i) => !drop.has(i))
  })
  return { pages: cleaned, dropped }
}

/** The top and bottom lines of a page, leaving at least one line between them as the body. */
function edgeIndexes(lines: string[]): number[] {
  const indexes = new Set<number>()
  for (let i = 0; i < Math.min(EDGE_LINES, Math.floor((lines.length - 1) / 2)); i++) {
    indexes.add(i)
    indexes.add(lines.length - 1 - i)
  }
  return [...indexes]
}

function runningKey(line: string): string {
  return line.toLowerCase().replace(/\d+/g, '#').replace(/\s+/g, ' ').trim()
}

/** Joins words split across line ends ("infor-\nmation" → "information"); drops soft hyphens. */
export function repairHyphenation(text: string): string {
  return text.replace(/(\p{L})[-\u00ad]\n(\p{Ll})/gu, '$1$2').replace(/\u00ad/g, '')
}
