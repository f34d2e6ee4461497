// Generated from packages/core/src/extract/html-to-markdown.ts by `npm run sync:core`: edit that file, not this one.
import TurndownService from 'turndown'
import { addGfmTables, cellMarker, isTableCell } from './gfm-table.ts'

/**
 * HTML → Markdown: ATX headings, fenced code, GFM tables, no images (their bytes are no text).
 * Takes a parsed element (see parseHtml), never a string: turndown's own string parsing needs a
 * DOMParser, which Web Workers lack.
 */
export function htmlToMarkdown(root: HTMLElement): string {
  return (
    turndown()
      .turndown(root)
      // Cells outside any table (broken HTML) keep their markers: drop those.
      .replace(/[\ue000\ue001]/g, ' ')
      .replace(/[ \t]+\n/g, '\n')
      .replace(/\n{3,}/g, '\n\n')
      .trim()
  )
}

let service: TurndownService | undefined

function turndown(): TurndownService {
  if (service) return service
  service = new TurndownService({
    headingStyle: 'atx',
    codeBlockStyle: 'fenced',
    bulletListMarker: '-',
    blankReplacement: (_content, node) =>
      isTableCell(node) ? cellMarker('') : (node as { isBlock?: boolean }).isBlock ? '\n\n' : '',
  })
  service.remove(['script', 'style', 'noscript', 'template'])
  service.addRule('image', { filter: 'img', replacement: () => '' })
  // A link around an image only would print as "[](url)": keep nothing.
  service.addRule('emptyLink', {
    filter: (node) => node.nodeName === 'A' && (node.textContent ?? '').trim() === '',
    replacement: () => '',
  })
  addGfmTables(service)
  return service
}
