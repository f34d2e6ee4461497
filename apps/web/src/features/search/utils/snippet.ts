import { plainLinks } from '@sourcebook/core/chat/plain-links'

export type SnippetPart = { text: string; match: boolean }

const entities: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>' }

// Where a line of a Markdown passage starts a block of its own: a table row, a heading, a
// list item.
const blockStart = /^(?:\||#{1,6} |[-*+] |\d{1,3}[.)] )/
const heading = /^(?:<mark>)?#{1,6} /

/**
 * Splits a search snippet into plain and matched runs. search_chunks escapes the content's
 * `& < >` before highlighting, so `<mark>` and `</mark>` are its only markup; everything
 * else is decoded back to text for React to render (never as HTML). Markdown links read as
 * their text, and the snippet keeps one line break where a paragraph, a CSV record, a table
 * row, a heading or a list item ends (other line breaks, such as a PDF's line wraps, become
 * spaces), so two records never run together; headings lose their `#`, list items read as
 * bullets.
 */
export function parseSnippet(snippet: string): SnippetPart[] {
  const parts: SnippetPart[] = []
  let match = false
  const lines = plainLinks(snippet)
    .replace(/[ \t]*\n\s*/g, (gap, at: number, text: string) =>
      gap.includes('\n', gap.indexOf('\n') + 1) ||
      blockStart.test(text.slice(at + gap.length)) ||
      heading.test(text.slice(text.lastIndexOf('\n', at - 1) + 1))
        ? '\n'
        : ' ',
    )
    // A Markdown heading reads as its words, a list item after a bullet.
    .replace(/^(?:<mark>)?#{1,6} +/gm, (marker) => marker.replace(/#+ +/, ''))
    .replace(/^([-*+]) +(?=\S)/gm, '• ')
  for (const piece of lines.split(/(<mark>|<\/mark>)/)) {
    if (piece === '<mark>' || piece === '</mark>') {
      match = piece === '<mark>'
      continue
    }
    if (piece) parts.push({ text: piece.replace(/&(amp|lt|gt);/g, (e) => entities[e]!), match })
  }
  return parts
}
