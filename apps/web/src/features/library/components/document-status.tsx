import {
  CircleAlertIcon,
  CircleCheckIcon,
  PlayIcon,
  RotateCwIcon,
  TriangleAlertIcon,
} from 'lucide-react'
import { Button } from '@/components/ui/button'
import { Progress } from '@/components/ui/progress'
import { isRecognising, progressText, statusLabel } from '@/lib/ingest-stages'
import { cn } from '@/lib/utils'
import type { LibraryDocument } from '../api/get-documents'
import type { DocumentStatus as Status } from '../utils/library-view'

type DocumentStatusProps = {
  document: LibraryDocument
  status: Status
  /** Offered for failed documents (Retry) and interrupted ones (Resume), to editors. */
  onRetry?: () => void
  /** Prefix for a new version being ingested, e.g. "New version". */
  label?: string
}

/** The live state of a document: stage and progress while processing, or why it failed. */
export function DocumentStatus({ document, status, onRetry, label }: DocumentStatusProps) {
  const prefix = label ? `${label}: ` : ''
  if (status === 'ready') {
    return (
      <span className="text-muted-foreground flex items-center gap-1.5 text-xs">
        <CircleCheckIcon className="size-3.5 text-emerald-600 dark:text-emerald-500" aria-hidden />
        {prefix}Ready
      </span>
    )
  }
  if (status === 'processing') {
    const stage = statusLabel(document)
    // "Recognising page 12 of 30… 40%" is too long for the column: it takes two lines (three
    // after "New version: ", the row is taller then, see rowHeight) rather than lose the page
    // numbers to an ellipsis.
    const wraps = isRecognising(document) && document.status !== 'queued'
    return (
      <div className="grid w-full gap-1">
        <span
          className={cn(
            'text-muted-foreground text-xs',
            wraps ? (label ? 'line-clamp-3' : 'line-clamp-2') : 'truncate',
          )}
        >
          {prefix}
          {progressText(document)}
        </span>
        <Progress value={document.progress} aria-label={`${prefix}${stage}`} />
      </div>
    )
  }
  const failed = status === 'failed'
  const Icon = failed ? CircleAlertIcon : TriangleAlertIcon
  return (
    <div className="flex min-w-0 items-center justify-between gap-1">
      <div className="grid min-w-0">
        <span
          className={
            failed
              ? 'text-destructive flex items-center gap-1.5 text-xs font-medium'
              : 'flex items-center gap-1.5 text-xs font-medium text-amber-700 dark:text-amber-500'
          }
        >
          <Icon className="size-3.5 shrink-0" aria-hidden />
          {prefix}
          {failed ? 'Failed' : 'Interrupted'}
        </span>
        {failed && document.error ? (
          <span className="text-muted-foreground line-clamp-2 text-xs" title={document.error}>
            {document.error}
          </span>
        ) : null}
      </div>
      {onRetry ? (
        <Button
          variant="ghost"
          size="icon-sm"
          className="relative z-10 size-7 shrink-0"
          onClick={onRetry}
          // An interrupted import is taken up where it stopped, a failed one is run again.
          aria-label={`${failed ? 'Retry' : 'Resume'} ${document.title}`}
          title={failed ? 'Retry' : 'Resume'}
        >
          {failed ? <RotateCwIcon aria-hidden /> : <PlayIcon aria-hidden />}
        </Button>
      ) : null}
    </div>
  )
}
