// Generated from packages/core/src/chat/passage-shape.ts by `npm run sync:core`: edit that file, not this one.
/** A line of a table: Markdown pipes, or cells separated by tabs. */
const tableRow = /^\s*\|.*\|\s*$|(?:\|[^|\n]*){2,}\||\t[^\t\n]*\t/m

// Past these, a "sentence" is an enumeration a reader scans rather than reads.
const MAX_LINES = 3
const MAX_ITEMS = 8
const MAX_CHARS = 400

/** Whether a sentence is a table row: quoting it out of its table says nothing. */
export const isTableRow = (text: string) => tableRow.test(text)

/** Whether a sentence is a list longer than a few lines (or items), or simply too long to quote. */
export function isLongList(text: string): boolean {
  if (text.length > MAX_CHARS) return true
  if (text.split('\n').filter((line) => line.trim()).length > MAX_LINES) return true
  return (text.match(/[,;•·]/g)?.length ?? 0) >= MAX_ITEMS
}

/** Table rows and long lists are offered as "show passage" on their source, never quoted. */
export const isBulky = (text: string) => isTableRow(text) || isLongList(text)
