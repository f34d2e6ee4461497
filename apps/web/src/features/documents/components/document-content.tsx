import { lazy, Suspense, useEffect, useRef, useState } from 'react'
import { Skeleton } from '@/components/ui/skeleton'
import { errorMessage } from '@/lib/errors'
import { documentType, isMarkdown } from '@/lib/format'
import { useOriginalBytes } from '../api/download-original'
import type { Passage } from '../api/get-chunk'
import type { DocumentDetail } from '../api/get-document'
import { useDocumentText } from '../api/get-document-text'
import { useOcrLines } from '../api/get-ocr-lines'
import { MarkdownView } from './markdown-view'
import { PdfErrorBoundary } from './pdf/pdf-error-boundary'
import { TextView } from './text-view'
import { type PdfView, ViewToggle } from './view-toggle'

// pdf.js is large: it loads with the first PDF opened, never with the app.
const PdfViewer = lazy(() => import('./pdf/pdf-viewer'))

const contentSkeleton = <Skeleton aria-label="Loading document" className="h-96 w-full" />

function PdfPages({ doc, passage }: { doc: DocumentDetail; passage: Passage | null }) {
  const original = useOriginalBytes(doc.id, doc.storage_path ?? '')
  // Scanned pages have no text layer: the passage is tinted on the lines OCR placed.
  const ocr = useOcrLines(doc.id, doc.ocr_pages > 0)
  if (original.isError)
    return (
      <p role="alert" className="text-destructive text-sm">
        Could not load the PDF: {errorMessage(original.error)}
      </p>
    )
  if (!original.data || (doc.ocr_pages > 0 && ocr.isPending)) return contentSkeleton
  const pageStart = passage?.page_start ?? null
  return (
    <PdfErrorBoundary>
      <Suspense fallback={contentSkeleton}>
        <PdfViewer
          bytes={original.data}
          ocrPages={ocr.data}
          passage={
            passage && pageStart !== null
              ? {
                  content: passage.content,
                  pageStart,
                  pageEnd: passage.page_end ?? pageStart,
                }
              : null
          }
        />
      </Suspense>
    </PdfErrorBoundary>
  )
}

function PdfContent({ doc, passage }: { doc: DocumentDetail; passage: Passage | null }) {
  const [view, setView] = useState<PdfView>('pages')
  return (
    <div className="grid gap-4">
      <ViewToggle value={view} onChange={setView} />
      {view === 'pages' ? (
        <PdfPages doc={doc} passage={passage} />
      ) : (
        <TextContent doc={doc} passage={passage} />
      )}
    </div>
  )
}

/** The passage's character range, when the chunk has one. */
function passageRange(passage: Passage | null) {
  if (passage?.char_start == null || passage.char_end == null) return null
  return { start: passage.char_start, end: passage.char_end }
}

/** Text formats as formatted text, the passage marked and scrolled to. */
function TextContent({ doc, passage }: { doc: DocumentDetail; passage: Passage | null }) {
  const box = useRef<HTMLDivElement>(null)
  const text = useDocumentText(doc.id)
  const type = documentType(doc)
  const range = passageRange(passage)
  useEffect(() => {
    if (range) box.current?.querySelector('mark')?.scrollIntoView({ block: 'center' })
  }, [range?.start, range?.end, text.data]) // eslint-disable-line react-hooks/exhaustive-deps
  if (text.isError)
    return (
      <p role="alert" className="text-destructive text-sm">
        Could not load the text: {errorMessage(text.error)}
      </p>
    )
  if (text.data === undefined) return contentSkeleton
  return (
    <div ref={box}>
      {isMarkdown(type) ? (
        <MarkdownView markdown={text.data} range={range} />
      ) : (
        <TextView text={text.data} range={range} monospace={type === 'csv'} />
      )}
    </div>
  )
}

/** A ready document's content: PDF pages, or its extracted text. */
export function DocumentContent({
  doc,
  passage,
}: {
  doc: DocumentDetail
  passage: Passage | null
}) {
  if (documentType(doc) === 'pdf' && doc.storage_path)
    return <PdfContent doc={doc} passage={passage} />
  return <TextContent doc={doc} passage={passage} />
}
