import type { TextLayer } from 'pdfjs-dist'
import type { MatchPart } from '../../utils/find-in-pdf'

/** A find match's part on a page, and whether it belongs to the current match. */
export type FoundPart = MatchPart & { current: boolean }

/**
 * Marks the found characters inside the text layer's spans (the same split pdf.js's own viewer
 * makes), after undoing earlier marks. Returns the current match's first mark, if on this page.
 */
export function markFound(layer: TextLayer, parts: FoundPart[]): HTMLElement | null {
  const divs = layer.textDivs
  const strings = layer.textContentItemsStr
  divs.forEach((div, index) => {
    if (div.childElementCount) div.textContent = strings[index] ?? ''
  })
  const byItem = new Map<number, FoundPart[]>()
  for (const part of parts) byItem.set(part.item, [...(byItem.get(part.item) ?? []), part])
  let current: HTMLElement | null = null
  for (const [item, itemParts] of byItem) {
    const div = divs[item]
    const text = strings[item]
    if (!div || text === undefined) continue
    const pieces: (string | HTMLElement)[] = []
    let at = 0
    for (const part of itemParts.toSorted((a, b) => a.start - b.start)) {
      if (part.start > at) pieces.push(text.slice(at, part.start))
      const mark = document.createElement('span')
      mark.className = part.current ? 'pdf-found pdf-found-current' : 'pdf-found'
      mark.textContent = text.slice(part.start, part.end)
      pieces.push(mark)
      if (part.current) current ??= mark
      at = part.end
    }
    if (at < text.length) pieces.push(text.slice(at))
    div.replaceChildren(...pieces)
  }
  return current
}
