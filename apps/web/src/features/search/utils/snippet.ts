export type SnippetPart = { text: string; match: boolean }

const entities: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>' }

/**
 * Splits a search snippet into plain and matched runs. search_chunks escapes the content's
 * `& < >` before highlighting, so `<mark>` and `</mark>` are its only markup; everything
 * else is decoded back to text for React to render (never as HTML).
 */
export function parseSnippet(snippet: string): SnippetPart[] {
  const parts: SnippetPart[] = []
  let match = false
  for (const piece of snippet.split(/(<mark>|<\/mark>)/)) {
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
