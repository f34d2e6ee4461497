import { FolderOpenIcon, SearchXIcon, TriangleAlertIcon } from 'lucide-react'
import { useMemo, useState } from 'react'
import type * as React from 'react'
import { EmptyState } from '@/components/layout/empty-state'
import { Button } from '@/components/ui/button'
import { useDatabaseNow } from '@/hooks/use-database-now'
import { errorMessage } from '@/lib/errors'
import { type LibraryDocument, useLibrary } from '../api/get-documents'
import { useDocumentsRealtime } from '../hooks/use-documents-realtime'
import { libraryRows, queryRows, type LibraryQuery } from '../utils/library-view'
import { DeleteDocumentDialog } from './delete-document-dialog'
import { DocumentTable } from './document-table'
import { LibraryToolbar } from './library-toolbar'
import { LibrarySkeleton } from './library-skeleton'
import { RenameDocumentDialog } from './rename-document-dialog'
import { StorageUsage } from './storage-usage'

type DocumentLibraryProps = {
  workspaceId: string
  /** Editors and owners: row actions and retries. */
  canEdit: boolean
  /** Documents this tab is ingesting: never shown as interrupted, however slow a stage. */
  busy?: ReadonlySet<string>
  /** Re-runs ingestion of a failed or interrupted document (editors). */
  onRetry?: (document: LibraryDocument) => void
  /** What the empty library says and offers (e.g. the drop zone for editors). */
  empty: { description: React.ReactNode; action?: React.ReactNode }
  /** Above the list (collections, what to do with a selection). */
  above?: React.ReactNode
  /** Only these documents (a collection's), or all; `onClearOnly` lets them all back. */
  only?: ReadonlySet<string> | null
  onClearOnly?: () => void
  /** Ticked documents; with `onSelect`, each row and the header get a checkbox. */
  selected?: ReadonlySet<string>
  onSelect?: (documentIds: string[], selected: boolean) => void
  /** Shown beside a document's title (its collections). */
  tags?: (documentId: string) => React.ReactNode
}

const initialQuery: LibraryQuery = {
  search: '',
  status: null,
  type: null,
  sort: { key: 'date', descending: true },
}

type Target = { id: string; title: string; file_name: string }

/** The workspace's documents, live: search, filters, order, and the editors' actions. */
export function DocumentLibrary({
  workspaceId,
  canEdit,
  busy,
  onRetry,
  empty,
  above,
  only,
  onClearOnly,
  selected,
  onSelect,
  tags,
}: DocumentLibraryProps) {
  const library = useLibrary(workspaceId)
  useDocumentsRealtime(workspaceId)
  const now = useDatabaseNow(15_000)
  const [query, setQuery] = useState(initialQuery)
  const [renaming, setRenaming] = useState<Target | null>(null)
  const [deleting, setDeleting] = useState<Target | null>(null)
  const documents = library.data?.documents
  const rows = useMemo(() => libraryRows(documents ?? [], now, busy), [documents, now, busy])
  const shown = useMemo(
    () => queryRows(rows, query).filter((row) => !only || only.has(row.document.id)),
    [rows, query, only],
  )

  if (library.isPending) return <LibrarySkeleton />
  if (library.isError) {
    return (
      <EmptyState
        icon={TriangleAlertIcon}
        title="The library could not be loaded"
        action={
          <Button variant="outline" onClick={() => void library.refetch()}>
            Try again
          </Button>
        }
      >
        {errorMessage(library.error)}
      </EmptyState>
    )
  }
  if (rows.length === 0) {
    return (
      <EmptyState icon={FolderOpenIcon} title="No documents yet" action={empty.action}>
        {empty.description}
      </EmptyState>
    )
  }
  return (
    <>
      {above}
      <LibraryToolbar query={query} onChange={setQuery} />
      <StorageUsage workspaceId={workspaceId} />
      {shown.length === 0 ? (
        <EmptyState
          icon={SearchXIcon}
          title="No documents match"
          action={
            <Button
              variant="outline"
              onClick={() => {
                setQuery({ ...initialQuery, sort: query.sort })
                onClearOnly?.()
              }}
            >
              Clear filters
            </Button>
          }
        >
          Nothing in this library matches the search and filters.
        </EmptyState>
      ) : (
        <DocumentTable
          workspaceId={workspaceId}
          rows={shown}
          sort={query.sort}
          uploaders={library.data.uploaders}
          onRetry={canEdit ? onRetry : undefined}
          onRename={canEdit ? setRenaming : undefined}
          onDelete={canEdit ? setDeleting : undefined}
          selected={selected}
          onSelect={onSelect}
          tags={tags}
        />
      )}
      <RenameDocumentDialog
        workspaceId={workspaceId}
        document={renaming}
        onClose={() => setRenaming(null)}
      />
      <DeleteDocumentDialog
        workspaceId={workspaceId}
        document={deleting}
        onClose={() => setDeleting(null)}
      />
    </>
  )
}
