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

type Passage = { document_id: string; document_type?: DocumentType | undefined }

/**
 * The types of the documents passages come from, so their places read as pages, slides or
 * neither. Citations carry their document's type; only those stored before it was kept (or
 * when the chat function could not read it) need a read: one cached read per document,
 * shared by every list that shows it (a type does not change).
 */
export function usePassageTypes(passages: Passage[]): Map<string, DocumentType> {
  const known = new Map(
    passages.flatMap((p) => (p.document_type ? [[p.document_id, p.document_type] as const] : [])),
  )
  const unknown = [...new Set(passages.map((p) => p.document_id))].filter((id) => !known.has(id))
  return useQueries({
    queries: unknown.map((id) => ({
      queryKey: ['document-type', id],
      queryFn: ({ signal }: { signal: AbortSignal }) => getDocumentType(id, signal),
      staleTime: Infinity,
    })),
    combine: (results) =>
      new Map([
        ...known,
        ...results.flatMap((result, i) =>
          result.data ? [[unknown[i]!, result.data] as const] : [],
        ),
      ]),
  })
}
