/**
 * The page (1-based) a reader is on: the last whose top edge has passed the reading line (just
 * under the toolbar), given each page's top in the same coordinates, in page order. Before the
 * first page, the first. Scrolled to the very end (`atEnd`), the last: the last pages' tops
 * may never reach the line, yet a jump to them must show their number.
 */
export function pageAtLine(tops: number[], line: number, atEnd = false): number {
  if (atEnd && tops.length && tops[0]! < line) return tops.length
  let page = 1
  tops.forEach((top, index) => {
    if (top <= line) page = index + 1
  })
  return page
}

/** A typed page number, if it names a page of a `count`-page document. */
export function parsePageNumber(input: string, count: number): number | null {
  const text = input.trim()
  if (!/^\d+$/.test(text)) return null
  const page = Number(text)
  return page >= 1 && page <= count ? page : null
}
