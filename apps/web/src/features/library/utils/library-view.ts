import { isInterrupted } from '@sourcebook/core/ingest/interrupted'
import { documentType, type DocumentType } from '@/lib/format'
import type { LibraryDocument } from '../api/get-documents'

export type DocumentStatus = 'processing' | 'interrupted' | 'ready' | 'failed'
export type SortKey = 'date' | 'title' | 'size'
export type Sort = { key: SortKey; descending: boolean }

export type LibraryRow = {
  document: LibraryDocument
  status: DocumentStatus
  type: DocumentType
  /** A new version being ingested to replace this document, if any. */
  replacement?: { document: LibraryDocument; status: DocumentStatus }
}

export type LibraryQuery = {
  search: string
  /** null: any status. */
  status: DocumentStatus | null
  /** null: any type. */
  type: DocumentType | null
  sort: Sort
}

/**
 * `now`: the database's time (useDatabaseNow), null while unknown. `busy`: documents this tab is
 * working on right now, however long a stage takes.
 */
export function documentStatus(
  document: LibraryDocument,
  now: number | null,
  busy: ReadonlySet<string> = new Set(),
): DocumentStatus {
  if (document.status === 'ready') return 'ready'
  if (document.status === 'failed') return 'failed'
  if (busy.has(document.id)) return 'processing'
  // The importers' rule too: a re-upload of an interrupted document's file resumes it.
  return now !== null && isInterrupted(document, now) ? 'interrupted' : 'processing'
}

/**
 * One row per document; a new version still being ingested (replaces_id) is shown on the
 * document it replaces rather than as a document of its own.
 */
export function libraryRows(
  documents: LibraryDocument[],
  now: number | null,
  busy: ReadonlySet<string> = new Set(),
): LibraryRow[] {
  const ids = new Set(documents.map((d) => d.id))
  const replacements = new Map<string, LibraryDocument>()
  for (const d of documents) {
    if (d.replaces_id && ids.has(d.replaces_id)) replacements.set(d.replaces_id, d)
  }
  return documents.flatMap((document) => {
    if (document.replaces_id && ids.has(document.replaces_id)) return []
    const pending = replacements.get(document.id)
    return [
      {
        document,
        status: documentStatus(document, now, busy),
        type: documentType(document),
        ...(pending
          ? { replacement: { document: pending, status: documentStatus(pending, now, busy) } }
          : {}),
      },
    ]
  })
}

const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' })

const compare: Record<SortKey, (a: LibraryDocument, b: LibraryDocument) => number> = {
  date: (a, b) => a.created_at.localeCompare(b.created_at),
  title: (a, b) => collator.compare(a.title, b.title),
  size: (a, b) => (a.size_bytes ?? -1) - (b.size_bytes ?? -1),
}

/** The rows that match the search and filters, in the chosen order. */
export function queryRows(rows: LibraryRow[], { search, status, type, sort }: LibraryQuery) {
  const words = search.trim().toLocaleLowerCase().split(/\s+/).filter(Boolean)
  const matches = (row: LibraryRow) => {
    if (status !== null && row.status !== status) return false
    if (type !== null && row.type !== type) return false
    // People find a document by its title or by the name of the file they uploaded.
    const names = `${row.document.title}\n${row.document.file_name}`.toLocaleLowerCase()
    return words.every((word) => names.includes(word))
  }
  const order = compare[sort.key]
  const sign = sort.descending ? -1 : 1
  return rows
    .filter(matches)
    .sort(
      (a, b) => sign * order(a.document, b.document) || a.document.id.localeCompare(b.document.id),
    )
}
