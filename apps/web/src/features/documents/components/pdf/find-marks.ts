import type { TextLayer } from 'pdfjs-dist'
import type { OcrPageLines } from '../../api/get-ocr-lines'
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

let measuring: CanvasRenderingContext2D | null | undefined

/**
 * A text's drawn width in a serif face (scans are mostly print), in no particular unit: only
 * ratios within a line are used. By character count where nothing can measure.
 */
export function serifWidth(text: string): number {
  if (measuring === undefined) measuring = document.createElement('canvas').getContext('2d')
  if (!measuring) return text.length
  measuring.font = '16px serif'
  return measuring.measureText(text).width
}

/**
 * Marks the found characters on a scanned page, which has no text layer: each part is a box
 * over its OCR line, narrowed to the part's share of the line's drawn width (OCR gives lines,
 * not words; measured in a serif face, the cut lands on the word closely enough to show it).
 * The marks of the last search are replaced. Returns the current match's first mark, if on
 * this page.
 */
export function markOcrFound(
  page: HTMLElement,
  lines: OcrPageLines['lines'],
  parts: FoundPart[],
  measure: (text: string) => number = serifWidth,
): HTMLElement | null {
  page.querySelector(':scope > .pdf-ocr-found')?.remove()
  if (parts.length === 0) return null
  let current: HTMLElement | null = null
  const marks = parts.flatMap((part) => {
    const line = lines[part.item]
    const whole = line ? measure(line.text) : 0
    if (!line || whole <= 0) return []
    const [left, top, right, bottom] = line.box
    const at = (offset: number) =>
      left + ((right - left) * measure(line.text.slice(0, offset))) / whole
    const mark = document.createElement('span')
    mark.className = part.current ? 'pdf-found pdf-found-current' : 'pdf-found'
    // Through the CSSOM: the Content-Security-Policy allows no style attributes.
    Object.assign(mark.style, {
      left: `${at(part.start) * 100}%`,
      top: `${top * 100}%`,
      width: `${(at(part.end) - at(part.start)) * 100}%`,
      height: `${(bottom - top) * 100}%`,
    })
    if (part.current) current ??= mark
    return [mark]
  })
  const layer = document.createElement('div')
  layer.className = 'pdf-ocr-layer pdf-ocr-found'
  layer.replaceChildren(...marks)
  page.append(layer)
  return current
}
