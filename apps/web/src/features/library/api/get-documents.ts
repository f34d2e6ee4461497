import { queryOptions, useQuery } from '@tanstack/react-query'
import { supabase } from '@/lib/supabase'
import { libraryKeys } from './keys'

/** What the list shows of a document. */
export const DOCUMENT_COLUMNS =
  'id, title, file_name, periods, mime_type, size_bytes, page_count, chunk_count, status, stage, progress, error, created_at, updated_at, created_by, replaces_id, ocr_pages, ocr_page, ocr_page_count'

export type LibraryDocument = {
  id: string
  title: string
  /** The uploaded file's name, shown under the title. */
  file_name: string
  periods: string[]
  mime_type: string | null
  size_bytes: number | null
  page_count: number | null
  chunk_count: number
  status: string
  stage: string
  progress: number
  error: string | null
  created_at: string
  updated_at: string
  created_by: string | null
  replaces_id: string | null
  /** Pages read by OCR (a scan): its text was recognised, not read, and may hold misreadings. */
  ocr_pages: number
  /** While OCR reads the scan: the page it is on, of how many (else null). */
  ocr_page: number | null
  ocr_page_count: number | null
}

export type Library = {
  documents: LibraryDocument[]
  /** Uploader names by user id (profiles.display_name). */
  uploaders: Record<string, string>
}

// The API returns at most max_rows (1,000) rows per request: read the workspace in pages.
const PAGE = 1000

async function getAllDocuments(workspaceId: string, signal: AbortSignal) {
  const documents: LibraryDocument[] = []
  for (let from = 0; ; from += PAGE) {
    const { data, error } = await supabase
      .from('documents')
      .select(DOCUMENT_COLUMNS)
      .eq('workspace_id', workspaceId)
      .order('created_at', { ascending: false })
      .order('id')
      .range(from, from + PAGE - 1)
      .abortSignal(signal)
    if (error) throw error
    documents.push(...data)
    if (data.length < PAGE) return documents
  }
}

export async function getUploaders(ids: string[], signal?: AbortSignal) {
  if (ids.length === 0) return {}
  const query = supabase.from('profiles').select('id, display_name').in('id', ids)
  const { data, error } = await (signal ? query.abortSignal(signal) : query)
  if (error) throw error
  return Object.fromEntries(data.map((p) => [p.id, p.display_name]))
}

export async function getLibrary(workspaceId: string, signal: AbortSignal): Promise<Library> {
  const documents = await getAllDocuments(workspaceId, signal)
  const ids = [...new Set(documents.flatMap((d) => (d.created_by ? [d.created_by] : [])))]
  return { documents, uploaders: await getUploaders(ids, signal) }
}

export const getLibraryQueryOptions = (workspaceId: string) =>
  queryOptions({
    queryKey: libraryKeys.documents(workspaceId),
    queryFn: ({ signal }) => getLibrary(workspaceId, signal),
  })

export function useLibrary(workspaceId: string) {
  return useQuery(getLibraryQueryOptions(workspaceId))
}
