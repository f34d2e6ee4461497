import { DOCUMENT_COLUMNS, type Library, type LibraryDocument } from '../api/get-documents'

const columns = DOCUMENT_COLUMNS.split(', ') as (keyof LibraryDocument)[]

export type LibraryChange = { upserted: LibraryDocument } | { deleted: string }

/**
 * The list after one realtime change: an updated row replaced in place, a new one first (the
 * list is newest first), a deleted one gone. Only the listed columns are kept, as a fetched
 * row would have them.
 */
export function patchLibrary(library: Library, change: LibraryChange): Library {
  if ('deleted' in change) {
    const documents = library.documents.filter((d) => d.id !== change.deleted)
    return documents.length === library.documents.length ? library : { ...library, documents }
  }
  const row = Object.fromEntries(
    columns.map((c) => [c, change.upserted[c] ?? null]),
  ) as LibraryDocument
  const index = library.documents.findIndex((d) => d.id === row.id)
  const documents =
    index === -1
      ? [row, ...library.documents]
      : library.documents.map((d, i) => (i === index ? row : d))
  return { ...library, documents }
}
