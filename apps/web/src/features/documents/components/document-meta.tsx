import { Badge } from '@/components/ui/badge'
import { documentType, formatBytes, formatDateTime, typeLabels } from '@/lib/format'
import { statusLabel } from '@/lib/ingest-stages'
import type { DocumentDetail } from '../api/get-document'

/** The same words as the page's body and the library's row (the page OCR is on, say). */
function StatusBadge({ doc, interrupted }: { doc: DocumentDetail; interrupted: boolean }) {
  if (doc.status === 'ready') return <Badge variant="secondary">Ready</Badge>
  if (doc.status === 'failed') return <Badge variant="destructive">Failed</Badge>
  if (interrupted) {
    return (
      <Badge variant="outline" className="text-amber-700 dark:text-amber-500">
        Interrupted
      </Badge>
    )
  }
  return <Badge variant="outline">{statusLabel(doc)}</Badge>
}

/** File name, type, size, period, names, pages, chunks, who uploaded it and when, and its status. */
export function DocumentMeta({ doc, interrupted }: { doc: DocumentDetail; interrupted: boolean }) {
  const facts: [string, string | null][] = [
    // The uploaded file's name: the title is what people call it.
    ['File', doc.file_name === doc.title ? null : doc.file_name],
    ['Type', typeLabels[documentType(doc)]],
    ['Size', doc.size_bytes === null ? null : formatBytes(doc.size_bytes)],
    // Detected at import (documents.periods), and what search favours the document for.
    ['Period', doc.periods.length > 0 ? doc.periods.join(', ') : null],
    ['Names', doc.names.length > 0 ? doc.names.join(', ') : null],
    ['Pages', doc.page_count === null ? null : String(doc.page_count)],
    ['Chunks', String(doc.chunk_count)],
    ['Uploaded by', doc.uploader],
    ['Added', formatDateTime(doc.created_at)],
    ['Updated', formatDateTime(doc.updated_at)],
    ['Version', doc.version > 1 ? String(doc.version) : null],
  ]
  return (
    <dl className="mt-2 flex flex-wrap items-center gap-x-4 gap-y-1 text-sm">
      <div className="flex items-center gap-1.5">
        <dt className="sr-only">Status</dt>
        <dd>
          <StatusBadge doc={doc} interrupted={interrupted} />
        </dd>
      </div>
      {facts.map(([label, value]) =>
        value === null ? null : (
          <div key={label} className="flex gap-1">
            <dt className="text-muted-foreground">{label}</dt>
            <dd>{value}</dd>
          </div>
        ),
      )}
    </dl>
  )
}
