export type PassageParts = { before: string; passage: string; after: string }

/**
 * `text` cut at a chunk's character offsets (clamped into the text, so stale offsets after
 * a re-extraction cannot throw): the passage is exactly `text.slice(start, end)`.
 */
export function splitPassage(text: string, start: number, end: number): PassageParts {
  const from = Math.max(0, Math.min(start, text.length))
  const to = Math.max(from, Math.min(end, text.length))
  return { before: text.slice(0, from), passage: text.slice(from, to), after: text.slice(to) }
}
