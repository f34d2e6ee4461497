import { queryOptions, useQuery } from '@tanstack/react-query'
import { supabase } from '@/lib/supabase'
import { documentKeys } from './keys'

/** A ready document's extracted text (Markdown for Word, HTML and Markdown files). */
export async function getDocumentText(documentId: string, signal: AbortSignal) {
  const { data, error } = await supabase
    .from('documents')
    .select('extracted_text')
    .eq('id', documentId)
    .abortSignal(signal)
    .single()
  if (error) throw error
  return data.extracted_text ?? ''
}

export function useDocumentText(documentId: string) {
  return useQuery(
    queryOptions({
      queryKey: documentKeys.text(documentId),
      queryFn: ({ signal }) => getDocumentText(documentId, signal),
    }),
  )
}
