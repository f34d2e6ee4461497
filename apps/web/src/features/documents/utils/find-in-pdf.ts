/** A text item of a PDF page, as pdf.js extracts it (and its text layer draws it, one span each). */
export type PageItem = { str: string; hasEOL?: boolean }

/** Part of a match inside one text item: characters [start, end) of its string. */
export type MatchPart = { item: number; start: number; end: number }

/** One occurrence of the query: the page (1-based) and the items it covers there. */
export type FindMatch = { page: number; parts: MatchPart[] }

/** Lower-cased, whitespace runs as one space: what search compares. */
export function normalizeQuery(query: string) {
  return query.trim().replace(/\s+/g, ' ').toLowerCase()
}

/**
 * A page's searchable text with, for each of its characters, the item and offset it came from.
 * Lines end in a space owned by no item, so a phrase broken over two lines still matches;
 * whitespace collapses the same way as in the query.
 */
function pageStream(items: PageItem[]) {
  let text = ''
  const owners: MatchPart[] = []
  const push = (char: string, item: number, start: number) => {
    if (/\s/.test(char)) {
      if (text === '' || text.endsWith(' ')) return
      char = ' '
    }
    // Lower-casing may lengthen a character (İ): every piece keeps its source.
    for (const piece of char.toLowerCase()) {
      text += piece
      owners.push({ item, start, end: start + char.length })
    }
  }
  items.forEach((entry, item) => {
    let offset = 0
    for (const char of entry.str) {
      push(char, item, offset)
      offset += char.length
    }
    if (entry.hasEOL) push(' ', -1, 0)
  })
  return { text, owners }
}

/**
 * Every occurrence of `query` (case-insensitive) on the pages, in reading order, each as the
 * parts of text items it covers so the text layer can mark exactly those characters.
 */
export function findMatches(pages: PageItem[][], query: string): FindMatch[] {
  const needle = normalizeQuery(query)
  if (!needle) return []
  const matches: FindMatch[] = []
  pages.forEach((items, index) => {
    const { text, owners } = pageStream(items)
    for (let at = text.indexOf(needle); at >= 0; at = text.indexOf(needle, at + needle.length)) {
      const parts: MatchPart[] = []
      for (const { item, start, end } of owners.slice(at, at + needle.length)) {
        if (item < 0) continue
        const last = parts[parts.length - 1]
        if (last?.item === item) last.end = Math.max(last.end, end)
        else parts.push({ item, start, end })
      }
      matches.push({ page: index + 1, parts })
    }
  })
  return matches
}

/** The match after (or before) `current`, wrapping around. */
export function stepMatch(current: number, count: number, direction: 1 | -1): number {
  if (count === 0) return -1
  return (current + direction + count) % count
}
