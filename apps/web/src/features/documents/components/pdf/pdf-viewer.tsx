import { getDocument, GlobalWorkerOptions, type PDFDocumentProxy } from 'pdfjs-dist'
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react'
import { Sheet, SheetContent, SheetDescription, SheetTitle } from '@/components/ui/sheet'
import { Skeleton } from '@/components/ui/skeleton'
import { useCurrentPage } from '../../hooks/use-current-page'
import { useElementWidth } from '../../hooks/use-element-width'
import { useMediaQuery } from '../../hooks/use-media-query'
import { usePdfFind } from '../../hooks/use-pdf-find'
import { usePdfOutline } from '../../hooks/use-pdf-outline'
import { useElementHeight } from '../../hooks/use-element-height'
import type { OcrPageLines } from '../../api/get-ocr-lines'
import { stepMatch } from '../../utils/find-in-pdf'
import { fitWidthScale, zoomIn, zoomOut } from '../../utils/pdf-zoom'
import type { FoundPart } from './find-marks'
import { PdfFindBar } from './pdf-find-bar'
import { PdfOutline } from './pdf-outline'
import { PdfPage } from './pdf-page'
import { PdfToolbar } from './pdf-toolbar'
import './text-layer.css'

GlobalWorkerOptions.workerSrc = new URL(
  'pdfjs-dist/build/pdf.worker.min.mjs',
  import.meta.url,
).toString()

type Loaded = { pdf: PDFDocumentProxy; width: number; height: number }

type PdfViewerProps = {
  bytes: Uint8Array
  /** The lines OCR placed on scanned pages, where a passage is tinted (no text layer). */
  ocrPages?: OcrPageLines[] | undefined
  /** The passage to show: its text and the pages it spans. */
  passage: { content: string; pageStart: number; pageEnd: number } | null
}

const pageIn = (pages: HTMLElement | null, number: number) =>
  pages?.querySelector<HTMLElement>(`[data-page="${number}"]`) ?? null

/** A PDF's pages with pdf.js (loaded with this module only), opened at the passage. */
export default function PdfViewer({ bytes, passage, ocrPages }: PdfViewerProps) {
  const [loaded, setLoaded] = useState<Loaded | null>(null)
  const [failed, setFailed] = useState(false)
  const [widthRef, width] = useElementWidth<HTMLDivElement>()
  const [pages, pagesRef] = useState<HTMLDivElement | null>(null)
  const [toolbarRef, toolbarHeight, toolbar] = useElementHeight<HTMLDivElement>()
  const wide = useMediaQuery('(min-width: 768px)')
  // Fit width until the reader zooms: pages then follow the column as the window narrows.
  const [zoom, setZoom] = useState<number | 'fit'>('fit')
  const zoomAnchor = useRef<number | null>(null)
  const [outlineOpen, setOutlineOpen] = useState(true)
  const [outlineSheet, setOutlineSheet] = useState(false)
  const sheetJump = useRef<number | null>(null)
  const [findOpen, setFindOpen] = useState(false)
  const [query, setQuery] = useState('')
  const findInput = useRef<HTMLInputElement>(null)
  const findButton = useRef<HTMLButtonElement>(null)
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
        setLoaded({ pdf, width: first.width, height: first.height })
      })
      .catch(() => setFailed(true))
    return () => void task.destroy()
  }, [bytes])

  const pdf = loaded?.pdf ?? null
  const outline = usePdfOutline(pdf)
  const fitScale = loaded && width ? fitWidthScale(width, loaded.width) : 0
  const scale = zoom === 'fit' ? fitScale : zoom
  const laidOut = scale > 0
  const page = useCurrentPage(pages, toolbar)
  const { matches, start, searching } = usePdfFind(pdf, findOpen ? query : '', page, ocrPages)

  const goTo = (number: number) => pageIn(pages, number)?.scrollIntoView({ block: 'start' })

  const pageStart = passage?.pageStart
  useEffect(() => {
    // Go to the passage's page once pages are laid out; its highlight centres it when drawn.
    if (laidOut && pageStart) pageIn(pages, pageStart)?.scrollIntoView()
  }, [laidOut, pageStart, pages])

  // A zoom keeps the reader on their page.
  useLayoutEffect(() => {
    if (zoomAnchor.current === null) return
    goTo(zoomAnchor.current)
    zoomAnchor.current = null
  }, [scale]) // eslint-disable-line react-hooks/exhaustive-deps
  const zoomTo = (next: number | 'fit') => {
    zoomAnchor.current = page
    setZoom(next)
  }

  // Each step is a new cursor: the page holding its match scrolls to it once per step.
  const initial = useMemo(() => ({ matches, index: start }), [matches, start])
  const [stepped, setStepped] = useState(initial)
  const cursor = stepped.matches === matches ? stepped : initial
  const current = cursor.index
  const step = (direction: 1 | -1) =>
    setStepped({ matches, index: stepMatch(current, matches.length, direction) })
  const currentMatch = matches[current]
  useEffect(() => {
    // A match on a page not drawn yet: bring the page near, so it draws and marks it.
    if (!currentMatch) return
    const element = pageIn(pages, currentMatch.page)
    if (element && !element.querySelector('.pdf-text-layer')) element.scrollIntoView()
  }, [currentMatch, cursor, pages])

  const foundByPage = useMemo(() => {
    const byPage = new Map<number, FoundPart[]>()
    matches.forEach((match, index) => {
      const parts = match.parts.map((part) => ({ ...part, current: index === current }))
      byPage.set(match.page, [...(byPage.get(match.page) ?? []), ...parts])
    })
    return byPage
  }, [matches, current])

  const openFind = () => {
    setFindOpen(true)
    // The bar renders with this state: focus it once it is there.
    requestAnimationFrame(() => findInput.current?.select())
  }
  const closeFind = () => {
    setFindOpen(false)
    findButton.current?.focus()
  }
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 'f' && !event.altKey) {
        event.preventDefault()
        openFind()
      }
    }
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [])

  if (failed) {
    return (
      <p role="alert" className="text-destructive text-sm">
        This PDF could not be displayed. Download the original to read it.
      </p>
    )
  }

  const jumpFromOutline = (number: number) => {
    if (!outlineSheet) return goTo(number)
    // The open sheet locks scrolling: go once it has closed, keeping focus from scrolling back.
    sheetJump.current = number
    setOutlineSheet(false)
  }
  const hasOutline = outline.length > 0
  const sidebar = hasOutline && wide && outlineOpen
  return (
    <div
      className="grid gap-3"
      style={
        {
          '--pdf-scroll-margin': `calc(var(--pdf-sticky-top, 0px) + ${toolbarHeight + 8}px)`,
        } as React.CSSProperties
      }
    >
      <div
        ref={toolbarRef}
        className="bg-background sticky top-[var(--pdf-sticky-top,0px)] z-10 grid gap-2 border-b py-2"
      >
        {loaded ? (
          <PdfToolbar
            page={page}
            pageCount={loaded.pdf.numPages}
            onGoTo={goTo}
            scale={scale}
            fitting={zoom === 'fit'}
            onZoom={(direction) => zoomTo(direction > 0 ? zoomIn(scale) : zoomOut(scale))}
            onFitWidth={() => zoomTo('fit')}
            findOpen={findOpen}
            findButtonRef={findButton}
            onToggleFind={() => (findOpen ? closeFind() : openFind())}
            outline={
              hasOutline
                ? {
                    open: wide ? outlineOpen : outlineSheet,
                    onToggle: () => (wide ? setOutlineOpen(!outlineOpen) : setOutlineSheet(true)),
                  }
                : null
            }
          />
        ) : (
          <Skeleton className="h-8 w-full" />
        )}
        {findOpen ? (
          <PdfFindBar
            inputRef={findInput}
            query={query}
            onQueryChange={setQuery}
            current={current}
            count={matches.length}
            searching={searching}
            onStep={step}
            onClose={closeFind}
          />
        ) : null}
      </div>
      <div className="flex items-start gap-4">
        {sidebar ? (
          <PdfOutline
            entries={outline}
            onJump={jumpFromOutline}
            className="sticky top-[var(--pdf-scroll-margin)] max-h-[calc(100svh-var(--pdf-scroll-margin)-1rem)] w-56 shrink-0 overflow-y-auto"
          />
        ) : null}
        {/* Zoomed wider than the column, pages scroll sideways instead of being clipped (no
            width of its own, so wide pages never widen the layout around it); the browser's own
            pinch zoom stays available on touch screens. */}
        <div
          ref={widthRef}
          className="w-0 min-w-0 flex-1 [touch-action:pan-x_pan-y_pinch-zoom] overflow-x-auto"
        >
          <div ref={pagesRef} className="grid w-max min-w-full justify-items-center gap-4">
            {!loaded || !scale ? (
              <Skeleton aria-label="Loading PDF" className="aspect-[1/1.3] w-full" />
            ) : (
              Array.from({ length: loaded.pdf.numPages }, (_, i) => i + 1).map((number) => (
                <PdfPage
                  key={number}
                  pdf={loaded.pdf}
                  number={number}
                  scale={scale}
                  firstSize={loaded}
                  ocrLines={ocrPages?.find((ocr) => ocr.number === number)?.lines}
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
                  found={foundByPage.get(number)}
                  foundRequest={currentMatch?.page === number ? cursor : undefined}
                />
              ))
            )}
          </div>
        </div>
      </div>
      {hasOutline && !wide ? (
        <Sheet open={outlineSheet} onOpenChange={setOutlineSheet}>
          <SheetContent
            className="overflow-y-auto p-4 pt-12"
            onCloseAutoFocus={(event) => {
              if (sheetJump.current === null) return
              event.preventDefault()
              toolbar
                ?.querySelector<HTMLElement>('[aria-label="Outline"]')
                ?.focus({ preventScroll: true })
              goTo(sheetJump.current)
              sheetJump.current = null
            }}
          >
            <SheetTitle className="text-sm font-semibold">Outline</SheetTitle>
            <SheetDescription className="sr-only">Go to a section of the document</SheetDescription>
            <PdfOutline entries={outline} onJump={jumpFromOutline} />
          </SheetContent>
        </Sheet>
      ) : null}
    </div>
  )
}
