import { queryOptions, useQuery } from '@tanstack/react-query'
import { supabase } from '@/lib/supabase'
import { documentKeys } from './keys'

/**
 * A ready document's extracted text (Markdown for Word, HTML and Markdown files); empty while
 * it has none yet.
 */
export async function getDocumentText(documentId: string, signal: AbortSignal) {
  const { data, error } = await supabase
    .from('document_texts')
    .select('text')
    .eq('document_id', documentId)
    .abortSignal(signal)
    .maybeSingle()
  if (error) throw error
  return data?.text ?? ''
}

export function useDocumentText(documentId: string) {
  return useQuery(
    queryOptions({
      queryKey: documentKeys.text(documentId),
      queryFn: ({ signal }) => getDocumentText(documentId, signal),
    }),
  )
}
