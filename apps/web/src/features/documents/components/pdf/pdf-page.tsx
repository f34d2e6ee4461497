import type { PDFDocumentProxy } from 'pdfjs-dist'
import { TextLayer } from 'pdfjs-dist'
import { useEffect, useRef, useState } from 'react'
import { passageItems } from '../../utils/match-passage'

type PdfPageProps = {
  pdf: PDFDocumentProxy
  number: number
  /** CSS pixels per PDF point. */
  scale: number
  /** Height over width of the first page, until this page's own size is known. */
  aspect: number
  /** The passage's text when it lies (partly) on this page. */
  passage: string | null
  onPassageShown?: (element: HTMLElement) => void
}

export const pageElementId = (number: number) => `pdf-page-${number}`

/**
 * One page, rendered (canvas + text layer) only while it is near the viewport, so long
 * documents stay light; the passage's text items are tinted once its text layer is built.
 */
export function PdfPage({ pdf, number, scale, aspect, passage, onPassageShown }: PdfPageProps) {
  const box = useRef<HTMLDivElement>(null)
  const [near, setNear] = useState(false)
  const [size, setSize] = useState<{ width: number; height: number } | null>(null)
  const shown = useRef(onPassageShown)
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
      setSize({ width: viewport.width, height: viewport.height })
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
      if (cancelled || !passage) return
      const spans = passageItems(layer.textContentItemsStr, passage).map((i) => layer!.textDivs[i])
      spans.forEach((span) => span?.classList.add('pdf-passage'))
      if (spans[0]) shown.current?.(spans[0])
    })().catch(() => {
      // A page that fails to draw (or is cancelled by scrolling away) stays a blank sheet.
    })
    return () => {
      cancelled = true
      layer?.cancel()
      element.replaceChildren()
    }
  }, [near, pdf, number, scale, passage])

  const width = size?.width ?? 0
  return (
    <section
      id={pageElementId(number)}
      ref={box}
      aria-label={`Page ${number}`}
      className="relative mx-auto bg-white shadow-sm ring-1 ring-black/10"
      style={
        {
          width: width || '100%',
          aspectRatio: size ? `${size.width} / ${size.height}` : `1 / ${aspect}`,
          '--scale-factor': scale,
          '--total-scale-factor': scale,
          '--scale-round-x': '1px',
          '--scale-round-y': '1px',
        } as React.CSSProperties
      }
    />
  )
}
