import { getDocument, GlobalWorkerOptions, type PDFDocumentProxy } from 'pdfjs-dist'
import { useEffect, useRef, useState } from 'react'
import { Skeleton } from '@/components/ui/skeleton'
import { PdfPage, pageElementId } from './pdf-page'
import './text-layer.css'

GlobalWorkerOptions.workerSrc = new URL(
  'pdfjs-dist/build/pdf.worker.min.mjs',
  import.meta.url,
).toString()

type Loaded = { pdf: PDFDocumentProxy; width: number; aspect: number }

type PdfViewerProps = {
  bytes: Uint8Array
  /** The passage to show: its text and the pages it spans. */
  passage: { content: string; pageStart: number; pageEnd: number } | null
}

const MAX_SCALE = 1.6

/** Watches an element's width, so pages fit the column on any screen. */
function useWidth() {
  const ref = useRef<HTMLDivElement>(null)
  const [width, setWidth] = useState(0)
  useEffect(() => {
    const element = ref.current
    if (!element) return
    const observer = new ResizeObserver(() => setWidth(element.clientWidth))
    observer.observe(element)
    setWidth(element.clientWidth)
    return () => observer.disconnect()
  }, [])
  return [ref, width] as const
}

/** A PDF's pages with pdf.js (loaded with this module only), opened at the passage. */
export default function PdfViewer({ bytes, passage }: PdfViewerProps) {
  const [loaded, setLoaded] = useState<Loaded | null>(null)
  const [failed, setFailed] = useState(false)
  const [ref, width] = useWidth()
  // The highlight scrolls into view once; a page redrawn after scrolling back stays put.
  const scrolledTo = useRef<string | null>(null)

  useEffect(() => {
    // pdf.js takes ownership of the buffer it is given: hand it a copy, the cache keeps ours.
    // No WebAssembly: the app's Content-Security-Policy forbids compiling it (pdf.js would
    // compile PDF functions to it), and pdf.js evaluates them in JavaScript instead.
    const task = getDocument({ data: bytes.slice(), useWasm: false })
    task.promise
      .then(async (pdf) => {
        const first = (await pdf.getPage(1)).getViewport({ scale: 1 })
        setLoaded({ pdf, width: first.width, aspect: first.height / first.width })
      })
      .catch(() => setFailed(true))
    return () => void task.destroy()
  }, [bytes])

  const scale = loaded && width ? Math.min(MAX_SCALE, width / loaded.width) : 0
  const pageStart = passage?.pageStart
  const laidOut = scale > 0
  useEffect(() => {
    // Go to the passage's page once pages are laid out; its highlight centres it when drawn.
    if (laidOut && pageStart) document.getElementById(pageElementId(pageStart))?.scrollIntoView()
  }, [laidOut, pageStart])

  if (failed) {
    return (
      <p role="alert" className="text-destructive text-sm">
        This PDF could not be displayed. Download the original to read it.
      </p>
    )
  }
  return (
    <div ref={ref} className="grid gap-4">
      {!loaded || !scale ? (
        <Skeleton aria-label="Loading PDF" className="aspect-[1/1.3] w-full" />
      ) : (
        Array.from({ length: loaded.pdf.numPages }, (_, i) => i + 1).map((number) => (
          <PdfPage
            key={number}
            pdf={loaded.pdf}
            number={number}
            scale={scale}
            aspect={loaded.aspect}
            passage={
              passage && number >= passage.pageStart && number <= passage.pageEnd
                ? passage.content
                : null
            }
            onPassageShown={
              number === passage?.pageStart
                ? (span) => {
                    if (scrolledTo.current === passage.content) return
                    scrolledTo.current = passage.content
                    span.scrollIntoView({ block: 'center' })
                  }
                : undefined
            }
          />
        ))
      )}
    </div>
  )
}
