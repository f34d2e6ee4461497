import { useWindowVirtualizer } from '@tanstack/react-virtual'
import { useLayoutEffect, useRef, useState } from 'react'
import type * as React from 'react'
import type { LibraryDocument } from '../api/get-documents'
import type { LibraryRow, Sort } from '../utils/library-view'
import { DocumentRow } from './document-row'
import { LibraryHeader } from './library-header'

type DocumentTableProps = {
  workspaceId: string
  rows: LibraryRow[]
  sort: Sort
  uploaders: Record<string, string>
  actions?: (document: LibraryDocument) => React.ReactNode
  onRetry?: (document: { id: string; title: string }) => void
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
  actions,
  onRetry,
}: DocumentTableProps) {
  const body = useRef<HTMLDivElement>(null)
  const [scrollMargin, setScrollMargin] = useState(0)
  useLayoutEffect(() => {
    setScrollMargin(body.current ? body.current.getBoundingClientRect().top + window.scrollY : 0)
  }, [])
  const virtualizer = useWindowVirtualizer({
    count: rows.length,
    estimateSize: () => 57,
    overscan: 8,
    scrollMargin,
    getItemKey: (index) => rows[index]!.document.id,
  })
  const items = virtualizer.getVirtualItems()
  return (
    <div role="table" aria-label="Documents" aria-rowcount={rows.length + 1}>
      <LibraryHeader sort={sort} withActions={!!actions} />
      <div
        role="rowgroup"
        ref={body}
        className="relative"
        style={{ height: virtualizer.getTotalSize() }}
      >
        {items.map((item) => {
          const row = rows[item.index]!
          return (
            <DocumentRow
              key={item.key}
              workspaceId={workspaceId}
              row={row}
              uploader={
                (row.document.created_by && uploaders[row.document.created_by]) || 'Unknown'
              }
              actions={actions?.(row.document)}
              onRetry={onRetry}
              rowProps={{
                ref: virtualizer.measureElement,
                'data-index': item.index,
                'aria-rowindex': item.index + 2,
                className: 'absolute inset-x-0 top-0',
                style: { transform: `translateY(${item.start - scrollMargin}px)` },
              }}
            />
          )
        })}
      </div>
    </div>
  )
}
