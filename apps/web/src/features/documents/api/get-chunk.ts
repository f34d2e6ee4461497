import { queryOptions, useQuery } from '@tanstack/react-query'
import { supabase } from '@/lib/supabase'
import { documentKeys } from './keys'

export type Passage = {
  id: string
  content: string
  char_start: number | null
  char_end: number | null
  page_start: number | null
  page_end: number | null
}

/** The chunk a link points at, if it belongs to this document; null otherwise. */
export async function getChunk(
  documentId: string,
  chunkId: string,
  signal: AbortSignal,
): Promise<Passage | null> {
  const { data, error } = await supabase
    .from('chunks')
    .select('id, content, char_start, char_end, page_start, page_end')
    .eq('id', chunkId)
    .eq('document_id', documentId)
    .abortSignal(signal)
    .maybeSingle()
  if (error) {
    if (error.code === '22P02') return null
    throw error
  }
  return data
}

export function useChunk(documentId: string, chunkId: string | null) {
  return useQuery(
    queryOptions({
      queryKey: documentKeys.chunk(documentId, chunkId ?? ''),
      queryFn: ({ signal }) => getChunk(documentId, chunkId ?? '', signal),
      enabled: chunkId !== null,
    }),
  )
}
