import type * as React from 'react'
import { cn } from '@/lib/utils'
import { rowGrid, wide, widest } from '../utils/library-grid'
import type { Sort, SortKey } from '../utils/library-view'

type LibraryHeaderProps = {
  sort: Sort
  withActions: boolean
  /** A checkbox that selects every row shown. */
  selectAll?: React.ReactNode
}

/** Column names; the sorted one says so to assistive tech (the order is chosen in the toolbar). */
export function LibraryHeader({ sort, withActions, selectAll }: LibraryHeaderProps) {
  const sorted = (key: SortKey) =>
    sort.key === key ? (sort.descending ? 'descending' : 'ascending') : undefined
  const heading = 'text-muted-foreground truncate text-xs font-medium'
  return (
    <div role="rowgroup" className="bg-muted/40 border-y">
      <div role="row" className={cn(rowGrid(withActions), 'px-4 py-2 sm:px-8')}>
        <div
          role="columnheader"
          aria-sort={sorted('title')}
          // Named by its text alone, not by the checkbox inside it.
          aria-label="Title"
          className={cn(heading, 'flex items-center gap-3')}
        >
          {selectAll}
          Title
        </div>
        <div role="columnheader" className={cn(heading, wide)}>
          Type
        </div>
        <div role="columnheader" aria-sort={sorted('size')} className={cn(heading, wide)}>
          Size
        </div>
        <div role="columnheader" className={cn(heading, widest)}>
          Pages
        </div>
        <div role="columnheader" className={cn(heading, widest)}>
          Chunks
        </div>
        <div role="columnheader" className={cn(heading, widest)}>
          Uploaded by
        </div>
        <div role="columnheader" aria-sort={sorted('date')} className={cn(heading, wide)}>
          Added
        </div>
        <div role="columnheader" className={heading}>
          Status
        </div>
        {withActions ? (
          <div role="columnheader" className="sr-only">
            Actions
          </div>
        ) : null}
      </div>
    </div>
  )
}
