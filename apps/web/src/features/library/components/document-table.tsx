import { useWindowVirtualizer } from '@tanstack/react-virtual'
import { useCallback, useLayoutEffect, useRef, useState } from 'react'
import type * as React from 'react'
import { rowHeight } from '../utils/library-grid'
import type { LibraryDocument } from '../api/get-documents'
import type { LibraryRow, Sort } from '../utils/library-view'
import { DocumentRow } from './document-row'
import { LibraryHeader } from './library-header'

type Target = { id: string; title: string; file_name: string }

type DocumentTableProps = {
  workspaceId: string
  rows: LibraryRow[]
  sort: Sort
  uploaders: Record<string, string>
  /** Editors' actions (stable callbacks, so rows stay memoized). */
  onRename?: (document: Target) => void
  onDelete?: (document: Target) => void
  onRetry?: (document: LibraryDocument) => void
  selected?: ReadonlySet<string>
  onSelect?: (documentIds: string[], selected: boolean) => void
  tags?: (documentId: string) => React.ReactNode
}

/**
 * The documents as a table whose rows are virtualized against the page's own scroll, so
 * thousands of rows cost only the few dozen on screen.
 */
export function DocumentTable({
  workspaceId,
  rows,
  sort,
  uploaders,
  onRename,
  onDelete,
  onRetry,
  selected,
  onSelect,
  tags,
}: DocumentTableProps) {
  const body = useRef<HTMLDivElement>(null)
  const scrollMargin = useOffsetTop(body)
  // Stable while the rows are: new functions make the virtualizer redo every row's offset.
  const getItemKey = useCallback((index: number) => rows[index]!.document.id, [rows])
  const estimateSize = useCallback((index: number) => rowHeight(rows[index]!), [rows])
  const virtualizer = useWindowVirtualizer({
    count: rows.length,
    estimateSize,
    overscan: 8,
    scrollMargin,
    getItemKey,
  })
  const items = virtualizer.getVirtualItems()
  return (
    <div role="table" aria-label="Documents" aria-rowcount={rows.length + 1}>
      <LibraryHeader
        sort={sort}
        withActions={!!onRename}
        selectAll={
          onSelect ? (
            <SelectAll
              ids={rows.map((r) => r.document.id)}
              selected={selected}
              onSelect={onSelect}
            />
          ) : null
        }
      />
      <div
        role="rowgroup"
        ref={body}
        className="relative"
        style={{ height: virtualizer.getTotalSize() }}
      >
        {items.map((item) => {
          const { document } = rows[item.index]!
          return (
            <DocumentRow
              key={item.key}
              workspaceId={workspaceId}
              row={rows[item.index]!}
              uploader={(document.created_by && uploaders[document.created_by]) || 'Unknown'}
              rowIndex={item.index + 2}
              top={item.start - scrollMargin}
              height={item.size}
              onRename={onRename}
              onDelete={onDelete}
              onRetry={onRetry}
              selected={selected?.has(document.id)}
              onSelect={onSelect}
              tags={tags?.(document.id)}
            />
          )
        })}
      </div>
    </div>
  )
}

type SelectAllProps = {
  ids: string[]
  selected?: ReadonlySet<string>
  onSelect: (documentIds: string[], selected: boolean) => void
}

/** Ticks every document shown (or none); mixed when some are. */
function SelectAll({ ids, selected, onSelect }: SelectAllProps) {
  const ticked = ids.filter((id) => selected?.has(id)).length
  const all = ids.length > 0 && ticked === ids.length
  return (
    <input
      type="checkbox"
      aria-label="Select all documents shown"
      className="accent-primary size-4"
      checked={all}
      ref={(box) => {
        if (box) box.indeterminate = ticked > 0 && !all
      }}
      onChange={() => onSelect(ids, !all)}
    />
  )
}

/**
 * Where an element starts on the page, kept up to date as content above it (the upload
 * queue) grows or shrinks: the virtualizer needs it to know which rows are on screen.
 */
function useOffsetTop(ref: React.RefObject<HTMLElement | null>) {
  const [top, setTop] = useState(0)
  useLayoutEffect(() => {
    const measure = () =>
      setTop(ref.current ? ref.current.getBoundingClientRect().top + window.scrollY : 0)
    measure()
    const observer = new ResizeObserver(measure)
    observer.observe(document.body)
    return () => observer.disconnect()
  }, [ref])
  return top
}
