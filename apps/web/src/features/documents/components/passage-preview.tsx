import { useEffect, useRef } from 'react'
import { Skeleton } from '@/components/ui/skeleton'
import { errorMessage } from '@/lib/errors'
import { documentType, isMarkdown } from '@/lib/format'
import { useChunk } from '../api/get-chunk'
import { useDocument } from '../api/get-document'
import { quoteRange } from '../utils/quote-range'
import { MarkdownView } from './markdown-view'
import { PassageMark } from './passage-mark'
import { TextView } from './text-view'

type PassagePreviewProps = {
  documentId: string
  chunkId: string
  /** The quoted part's place in the document's text, when known. */
  cited: { start: number; end: number } | null
  /** The quoted words as saved (e.g. with an answer): shown if the passage is gone. */
  quote: string | null
}

/**
 * A passage of a document, formatted as the document page shows its text (Markdown for Word,
 * HTML and Markdown files), its quoted part marked the same way.
 */
export function PassagePreview({ documentId, chunkId, cited, quote }: PassagePreviewProps) {
  const box = useRef<HTMLDivElement>(null)
  const chunk = useChunk(documentId, chunkId)
  const doc = useDocument(documentId)
  const passage = chunk.data
  useEffect(() => {
    box.current?.querySelector('mark')?.scrollIntoView({ block: 'nearest' })
  }, [passage, doc.data])

  if (chunk.isPending || doc.isPending)
    return (
      <div className="grid gap-2" aria-label="Loading the passage" role="status">
        <Skeleton className="h-3 w-full" />
        <Skeleton className="h-3 w-full" />
        <Skeleton className="h-3 w-2/3" />
      </div>
    )
  if (chunk.isError || doc.isError)
    return (
      <p role="alert" className="text-destructive text-sm">
        Could not load the passage: {errorMessage(chunk.error ?? doc.error)}
      </p>
    )
  if (!passage || !doc.data)
    return (
      <div className="grid gap-3 text-sm">
        <p className="text-muted-foreground">
          This passage is no longer in the document (it was replaced or processed again). The words
          quoted at the time:
        </p>
        {quote ? (
          <blockquote className="leading-relaxed whitespace-pre-wrap">
            <PassageMark>{quote}</PassageMark>
          </blockquote>
        ) : null}
      </div>
    )
  const range = quoteRange(passage, cited, quote)
  const type = documentType(doc.data)
  return (
    // A passage opening with a heading starts at the top, without the heading's margin.
    <div ref={box} className="[&>div>*:first-child]:mt-0">
      {isMarkdown(type) ? (
        <MarkdownView markdown={passage.content} range={range} />
      ) : (
        <TextView text={passage.content} range={range} monospace={type === 'csv'} />
      )}
    </div>
  )
}
