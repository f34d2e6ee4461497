import { plainLinks } from '@sourcebook/core/chat/plain-links'

export type SnippetPart = { text: string; match: boolean }

const entities: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>' }

/**
 * Splits a search snippet into plain and matched runs. search_chunks escapes the content's
 * `& < >` before highlighting, so `<mark>` and `</mark>` are its only markup; everything
 * else is decoded back to text for React to render (never as HTML). Markdown links read as
 * their text, and the snippet keeps one line break where a paragraph, a CSV record or a table
 * row ends (other line breaks, such as a PDF's line wraps, become spaces), so two records never
 * run together.
 */
export function parseSnippet(snippet: string): SnippetPart[] {
  const parts: SnippetPart[] = []
  let match = false
  const lines = plainLinks(snippet).replace(/[ \t]*\n\s*/g, (gap, at: number, text: string) =>
    gap.includes('\n', gap.indexOf('\n') + 1) || text[at + gap.length] === '|' ? '\n' : ' ',
  )
  for (const piece of lines.split(/(<mark>|<\/mark>)/)) {
    if (piece === '<mark>' || piece === '</mark>') {
      match = piece === '<mark>'
      continue
    }
    if (piece) parts.push({ text: piece.replace(/&(amp|lt|gt);/g, (e) => entities[e]!), match })
  }
  return parts
}

/** "p. 3" or "pp. 3–5", or null when the passage has no page. */
export function pageLabel(start: number | null, end: number | null): string | null {
  if (start === null) return null
  return end === null || end === start ? `p. ${start}` : `pp. ${start}–${end}`
}
