import type { PDFDocumentProxy } from 'pdfjs-dist'
import { TextLayer } from 'pdfjs-dist'
import { useEffect, useRef, useState } from 'react'
import type { OcrPageLines } from '../../api/get-ocr-lines'
import { passageItems } from '../../utils/match-passage'
import { type FoundPart, markFound, markOcrFound } from './find-marks'

type PdfPageProps = {
  pdf: PDFDocumentProxy
  number: number
  /** CSS pixels per PDF point. */
  scale: number
  /** The first page's size in PDF points, until this page's own is known. */
  firstSize: PageSize
  /** A scanned page's OCR lines: the passage is tinted on their boxes (it has no text layer). */
  ocrLines?: OcrPageLines['lines'] | undefined
  /** The passage's text when it lies (partly) on this page. */
  passage: string | null
  onPassageShown?: (element: HTMLElement) => void
  /** Find matches on this page, marked in its text layer (a scanned page's: on its OCR lines). */
  found?: FoundPart[]
  /** A new value each time the reader steps to a match on this page: it is then scrolled to. */
  foundRequest?: object
}

type PageSize = { width: number; height: number }

const NOTHING_FOUND: FoundPart[] = []

export const pageElementId = (number: number) => `pdf-page-${number}`

/**
 * One page, rendered (canvas + text layer) only while it is near the viewport, so long
 * documents stay light; the passage's text items are tinted once its text layer is built, and
 * find matches marked in it.
 */
export function PdfPage(props: PdfPageProps) {
  const { pdf, number, scale, firstSize, passage, onPassageShown, ocrLines } = props
  const { found = NOTHING_FOUND, foundRequest } = props
  const box = useRef<HTMLDivElement>(null)
  const [near, setNear] = useState(false)
  // In PDF points: a page far away keeps its place at any zoom without being drawn.
  const [size, setSize] = useState<PageSize | null>(null)
  const [layer, setLayer] = useState<TextLayer | null>(null)
  const shown = useRef(onPassageShown)
  const scrolledFor = useRef<object | undefined>(undefined)
  useEffect(() => {
    shown.current = onPassageShown
  })

  useEffect(() => {
    const observer = new IntersectionObserver(([entry]) => setNear(!!entry?.isIntersecting), {
      rootMargin: '1200px 0px',
    })
    if (box.current) observer.observe(box.current)
    return () => observer.disconnect()
  }, [])

  useEffect(() => {
    const element = box.current
    if (!near || !element) return
    let cancelled = false
    let layer: TextLayer | null = null
    const canvas = document.createElement('canvas')
    const text = document.createElement('div')
    text.className = 'pdf-text-layer'
    void (async () => {
      const page = await pdf.getPage(number)
      if (cancelled) return
      const viewport = page.getViewport({ scale })
      const points = page.getViewport({ scale: 1 })
      setSize({ width: points.width, height: points.height })
      const ratio = window.devicePixelRatio || 1
      canvas.width = Math.floor(viewport.width * ratio)
      canvas.height = Math.floor(viewport.height * ratio)
      canvas.className = 'absolute inset-0 h-full w-full'
      element.replaceChildren(canvas, text)
      const task = page.render({
        canvas,
        viewport,
        transform: ratio === 1 ? undefined : [ratio, 0, 0, ratio, 0, 0],
      })
      layer = new TextLayer({
        textContentSource: page.streamTextContent(),
        container: text,
        viewport,
      })
      await Promise.all([task.promise, layer.render()])
      if (cancelled) return
      setLayer(layer)
      if (!passage) return
      const spans = ocrLines
        ? ocrPassageBoxes(element, ocrLines, passage)
        : passageItems(layer.textContentItemsStr, passage).map((i) => layer!.textDivs[i])
      spans.forEach((span) => span?.classList.add('pdf-passage'))
      if (spans[0]) shown.current?.(spans[0])
    })().catch(() => {
      // A page that fails to draw (or is cancelled by scrolling away) stays a blank sheet.
    })
    return () => {
      cancelled = true
      layer?.cancel()
      setLayer(null)
      element.replaceChildren()
    }
  }, [near, pdf, number, scale, passage, ocrLines])

  useEffect(() => {
    const element = box.current
    if (!layer || !element) return
    // A scanned page's matches are in its OCR lines (find searched those), marked on their boxes.
    const current = ocrLines ? markOcrFound(element, ocrLines, found) : markFound(layer, found)
    // Scrolled to once per step: a page redrawn after the reader scrolled away stays put.
    if (current && foundRequest !== undefined && scrolledFor.current !== foundRequest) {
      scrolledFor.current = foundRequest
      current.scrollIntoView({ block: 'center', inline: 'nearest' })
    }
  }, [layer, found, foundRequest, ocrLines])

  const { width, height } = size ?? firstSize
  return (
    <section
      id={pageElementId(number)}
      ref={box}
      data-page={number}
      aria-label={`Page ${number}`}
      className="relative shrink-0 bg-white shadow-sm ring-1 ring-black/10"
      style={
        {
          width: width * scale,
          aspectRatio: `${width} / ${height}`,
          // Jumps to a page land below the sticky toolbar, not under it.
          scrollMarginTop: 'var(--pdf-scroll-margin, 0px)',
          '--scale-factor': scale,
          '--total-scale-factor': scale,
          '--scale-round-x': '1px',
          '--scale-round-y': '1px',
        } as React.CSSProperties
      }
    />
  )
}

/**
 * A scanned page's passage: the OCR lines it covers (matched as text items are), each drawn as
 * a box over the picture in a layer of its own, sized in percent so it follows the zoom.
 */
function ocrPassageBoxes(
  page: HTMLElement,
  lines: OcrPageLines['lines'],
  passage: string,
): HTMLElement[] {
  const indices = passageItems(
    lines.map((line) => line.text),
    passage,
  )
  if (indices.length === 0) return []
  const layer = document.createElement('div')
  layer.className = 'pdf-ocr-layer'
  const boxes = indices.map((index) => {
    const [left, top, right, bottom] = lines[index]!.box
    const box = document.createElement('span')
    // Through the CSSOM: the Content-Security-Policy allows no style attributes.
    Object.assign(box.style, {
      left: `${left * 100}%`,
      top: `${top * 100}%`,
      width: `${(right - left) * 100}%`,
      height: `${(bottom - top) * 100}%`,
    })
    return box
  })
  layer.replaceChildren(...boxes)
  page.append(layer)
  return boxes
}
