import { queryOptions, useQuery } from '@tanstack/react-query'
import type { Database } from '@/lib/database.types'
import { supabase } from '@/lib/supabase'
import { documentKeys } from './keys'

type Row = Database['public']['Tables']['documents']['Row']

export type DocumentDetail = Row & {
  /** The uploader's display name; null when they left or their account is gone. */
  uploader: string | null
}

/** One document's details; null when it is gone or the caller cannot see it. */
export async function getDocument(
  documentId: string,
  signal: AbortSignal,
): Promise<DocumentDetail | null> {
  const { data, error } = await supabase
    .from('documents')
    .select('*')
    .eq('id', documentId)
    .abortSignal(signal)
    .maybeSingle()
  if (error) {
    // A malformed id is simply a document that does not exist.
    if (error.code === '22P02') return null
    throw error
  }
  if (!data) return null
  // documents.created_by points at auth.users, so the profile cannot be embedded.
  const profile = data.created_by
    ? await supabase
        .from('profiles')
        .select('display_name')
        .eq('id', data.created_by)
        .abortSignal(signal)
        .maybeSingle()
    : null
  return { ...data, uploader: profile?.data?.display_name ?? null }
}

export const getDocumentQueryOptions = (documentId: string) =>
  queryOptions({
    queryKey: documentKeys.detail(documentId),
    queryFn: ({ signal }) => getDocument(documentId, signal),
  })

export function useDocument(documentId: string) {
  return useQuery(getDocumentQueryOptions(documentId))
}
