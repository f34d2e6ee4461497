// Generated from packages/core/src/extract/pages.ts by `npm run sync:core`: edit that file, not this one.
import type { PageRange } from './types.ts'

/** Page texts joined by a blank line, with the character range each page occupies. */
export function joinPages(pageTexts: string[]): { text: string; pages: PageRange[] } {
  const pages: PageRange[] = []
  let text = ''
  pageTexts.forEach((pageText, i) => {
    if (i > 0) text += '\n\n'
    pages.push({ number: i + 1, start: text.length, end: text.length + pageText.length })
    text += pageText
  })
  return { text, pages }
}

/** The single page of a non-paginated document. */
export function onePage(text: string): PageRange[] {
  return [{ number: 1, start: 0, end: text.length }]
}
