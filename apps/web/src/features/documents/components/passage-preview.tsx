import { useEffect, useRef } from 'react'
import { Skeleton } from '@/components/ui/skeleton'
import { errorMessage } from '@/lib/errors'
import { useChunk } from '../api/get-chunk'
import { quoteRange } from '../utils/quote-range'
import { splitPassage } from '../utils/split-passage'
import { PassageMark } from './passage-mark'

type PassagePreviewProps = {
  documentId: string
  chunkId: string
  /** The quoted part's place in the document's text, when known. */
  cited: { start: number; end: number } | null
  /** The quoted words as saved (e.g. with an answer): shown if the passage is gone. */
  quote: string | null
}

/** A passage of a document as text, its quoted part marked as the document page marks it. */
export function PassagePreview({ documentId, chunkId, cited, quote }: PassagePreviewProps) {
  const box = useRef<HTMLDivElement>(null)
  const chunk = useChunk(documentId, chunkId)
  const passage = chunk.data
  useEffect(() => {
    box.current?.querySelector('mark')?.scrollIntoView({ block: 'nearest' })
  }, [passage])

  if (chunk.isPending)
    return (
      <div className="grid gap-2" aria-label="Loading the passage" role="status">
        <Skeleton className="h-3 w-full" />
        <Skeleton className="h-3 w-full" />
        <Skeleton className="h-3 w-2/3" />
      </div>
    )
  if (chunk.isError)
    return (
      <p role="alert" className="text-destructive text-sm">
        Could not load the passage: {errorMessage(chunk.error)}
      </p>
    )
  if (!passage)
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
  const parts = range ? splitPassage(passage.content, range.start, range.end) : null
  return (
    <div ref={box} className="text-sm leading-relaxed break-words whitespace-pre-wrap">
      {parts ? (
        <>
          {parts.before}
          <PassageMark>{parts.passage}</PassageMark>
          {parts.after}
        </>
      ) : (
        passage.content
      )}
    </div>
  )
}
