import { FileTextIcon } from 'lucide-react'
import { memo } from 'react'
import type * as React from 'react'
import { Link } from 'react-router'
import { Badge } from '@/components/ui/badge'
import { documentHref } from '@/lib/links'
import { formatBytes, formatDate, formatDateTime, typeLabels } from '@/lib/format'
import { cn } from '@/lib/utils'
import { rowGrid, wide, widest } from '../utils/library-grid'
import type { LibraryDocument } from '../api/get-documents'
import type { LibraryRow } from '../utils/library-view'
import { DocumentActions } from './document-actions'
import { DocumentStatus } from './document-status'

type DocumentRowProps = {
  workspaceId: string
  row: LibraryRow
  uploader: string
  /** Where the virtualizer puts the row (1-based among the table's rows, header included). */
  rowIndex: number
  top: number
  height: number
  /** Editors' actions; without them the row has no menu. */
  onRename?: (document: Target) => void
  onDelete?: (document: Target) => void
  onRetry?: (document: LibraryDocument) => void
  /** With `onSelect`, a checkbox ticks the row. */
  selected?: boolean
  onSelect?: (documentIds: string[], selected: boolean) => void
  /** Beside the title (the document's collections). */
  tags?: React.ReactNode
}

type Target = { id: string; title: string; file_name: string }

const numberFormat = new Intl.NumberFormat()
const number = (value: number | null) => (value === null ? '—' : numberFormat.format(value))

/**
 * One document; the title is the link, stretched over the whole row. Memoized: scrolling
 * renders only the rows that come into view.
 */
export const DocumentRow = memo(function DocumentRow({
  workspaceId,
  row,
  uploader,
  rowIndex,
  top,
  height,
  onRename,
  onDelete,
  onRetry,
  selected = false,
  onSelect,
  tags,
}: DocumentRowProps) {
  const { document, status, type, replacement } = row
  const retriable = status === 'failed' || status === 'interrupted'
  const size = document.size_bytes === null ? '—' : formatBytes(document.size_bytes)
  const cell = 'text-muted-foreground truncate text-sm tabular-nums'
  // The file it came from and the period detected at import (or set by an editor).
  const details = [document.file_name, document.periods.join(', ')].filter(Boolean).join(' · ')
  return (
    <div
      role="row"
      aria-rowindex={rowIndex}
      style={{ height, transform: `translateY(${top}px)` }}
      className={cn(
        rowGrid(!!onRename),
        'hover:bg-accent/50 focus-within:bg-accent/50 absolute inset-x-0 top-0 overflow-hidden border-b px-4 py-2 sm:px-8',
      )}
    >
      <div role="cell" className="flex min-w-0 items-center gap-3">
        {onSelect ? (
          <input
            type="checkbox"
            aria-label={`Select ${document.title}`}
            className="accent-primary relative z-10 size-4 shrink-0"
            checked={selected}
            onChange={(event) => onSelect([document.id], event.target.checked)}
          />
        ) : null}
        <FileTextIcon
          className="text-muted-foreground hidden size-4 shrink-0 sm:block"
          aria-hidden
        />
        <div className="min-w-0">
          <Link
            to={documentHref(workspaceId, document.id)}
            className="block truncate text-sm font-medium outline-none after:absolute after:inset-0 focus-visible:underline"
            title={document.title}
          >
            {document.title}
          </Link>
          <div className="flex min-w-0 items-center gap-2">
            <p className="text-muted-foreground min-w-0 truncate text-xs" title={details}>
              <span>{details}</span>
              <span className="md:hidden">
                {' · '}
                {typeLabels[type]} · {size} · {formatDate(document.created_at)}
              </span>
            </p>
            {document.ocr_pages > 0 ? <OcrBadge pages={document.ocr_pages} /> : null}
            {/* Beside the file name, so the row keeps its height; phones have no room. */}
            {tags ? (
              <div className="hidden max-w-[60%] shrink-0 gap-1 overflow-hidden md:flex">
                {tags}
              </div>
            ) : null}
          </div>
        </div>
      </div>
      <div role="cell" className={cn(cell, wide)}>
        {typeLabels[type]}
      </div>
      <div role="cell" className={cn(cell, wide)}>
        {size}
      </div>
      <div role="cell" className={cn(cell, widest)}>
        {number(document.page_count)}
      </div>
      <div role="cell" className={cn(cell, widest)}>
        {number(document.chunk_count)}
      </div>
      <div role="cell" className={cn(cell, widest)} title={uploader}>
        {uploader}
      </div>
      <div role="cell" className={cn(cell, wide)} title={formatDateTime(document.created_at)}>
        {formatDate(document.created_at)}
      </div>
      <div role="cell" className="grid min-w-0 gap-1">
        <DocumentStatus
          document={document}
          status={status}
          onRetry={retriable && onRetry ? () => onRetry(document) : undefined}
        />
        {replacement && replacement.status !== 'ready' ? (
          <DocumentStatus
            document={replacement.document}
            status={replacement.status}
            label="New version"
            onRetry={
              replacement.status !== 'processing' && onRetry
                ? () => onRetry(replacement.document)
                : undefined
            }
          />
        ) : null}
      </div>
      {onRename && onDelete ? (
        <div role="cell" className="relative z-10 justify-self-end">
          <DocumentActions
            title={document.title}
            onRename={() => onRename(document)}
            onDelete={() => onDelete(document)}
          />
        </div>
      ) : null}
    </div>
  )
})

/** Says the text was recognised from scanned pages, so a reader knows it may hold misreadings. */
function OcrBadge({ pages }: { pages: number }) {
  const label = `Text read by OCR from ${pages} scanned page${pages === 1 ? '' : 's'}`
  return (
    <Badge
      variant="outline"
      className="text-muted-foreground px-1.5 py-0 text-[0.7rem]"
      title={label}
    >
      <span aria-hidden>OCR</span>
      <span className="sr-only">{label}</span>
    </Badge>
  )
}
