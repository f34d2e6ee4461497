import { FileQuestionIcon, LoaderIcon, TriangleAlertIcon } from 'lucide-react'
import { Link } from 'react-router'
import { EmptyState } from '@/components/layout/empty-state'
import { Button } from '@/components/ui/button'
import { Progress } from '@/components/ui/progress'
import { progressText, statusLabel } from '@/lib/ingest-stages'
import type { DocumentDetail } from '../api/get-document'

export function DocumentNotFound({ libraryHref }: { libraryHref: string }) {
  return (
    <EmptyState
      icon={FileQuestionIcon}
      title="Document not found"
      action={
        <Button asChild variant="outline">
          <Link to={libraryHref}>Back to the library</Link>
        </Button>
      }
    >
      It may have been deleted or replaced, or you may not have access to it.
    </EmptyState>
  )
}

export function DocumentFailed({ doc }: { doc: DocumentDetail }) {
  return (
    <EmptyState icon={TriangleAlertIcon} title="This document could not be read">
      <span role="alert">{doc.error ?? 'Processing failed.'}</span>
    </EmptyState>
  )
}

/** Live while the document is processed elsewhere: its stage and progress. */
export function DocumentProcessing({ doc }: { doc: DocumentDetail }) {
  return (
    <EmptyState icon={LoaderIcon} title="Processing this document">
      <div className="grid justify-items-center gap-3">
        <p aria-live="polite">{progressText(doc)}</p>
        <Progress value={doc.progress} aria-label={statusLabel(doc)} className="w-64 max-w-full" />
      </div>
    </EmptyState>
  )
}

/** Its import stopped (no heartbeat): the library offers Resume, and the same file resumes it. */
export function DocumentInterrupted() {
  return (
    <EmptyState icon={TriangleAlertIcon} title="The import of this document stopped">
      Resume it from the library, or upload the same file again to pick it up.
    </EmptyState>
  )
}
