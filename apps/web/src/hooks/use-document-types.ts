import { useQueries } from '@tanstack/react-query'
import { type DocumentType, documentType } from '@/lib/format'
import { supabase } from '@/lib/supabase'

/** A document's type, or null when it is gone or hidden (RLS). */
async function getDocumentType(documentId: string, signal: AbortSignal) {
  const { data, error } = await supabase
    .from('documents')
    .select('mime_type, storage_path, title')
    .eq('id', documentId)
    .abortSignal(signal)
    .maybeSingle()
  if (error) throw error
  return data ? documentType(data) : null
}

/**
 * The types of the documents passages come from (search results and citations name only the
 * document), so their places read as pages, slides or neither. One cached read per
 * document, shared by every list that shows it; a type does not change.
 */
export function useDocumentTypes(documentIds: string[]): Map<string, DocumentType> {
  const ids = [...new Set(documentIds)]
  return useQueries({
    queries: ids.map((id) => ({
      queryKey: ['document-type', id],
      queryFn: ({ signal }: { signal: AbortSignal }) => getDocumentType(id, signal),
      staleTime: Infinity,
    })),
    combine: (results) =>
      new Map(
        results.flatMap((result, i) => (result.data ? [[ids[i]!, result.data] as const] : [])),
      ),
  })
}
