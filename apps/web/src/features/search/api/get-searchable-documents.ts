import { queryOptions, useQuery } from '@tanstack/react-query'
import { supabase } from '@/lib/supabase'
import { searchKeys } from './keys'

export type SearchableDocument = { id: string; title: string; mime_type: string | null }

/** The workspace's indexed documents, to narrow a search to one of them or to a kind. */
export async function getSearchableDocuments(
  workspaceId: string,
  signal: AbortSignal,
): Promise<SearchableDocument[]> {
  const { data, error } = await supabase
    .from('documents')
    .select('id, title, mime_type')
    .eq('workspace_id', workspaceId)
    .eq('status', 'ready')
    .order('title')
    .abortSignal(signal)
  if (error) throw error
  return data
}

export const getSearchableDocumentsQueryOptions = (workspaceId: string) =>
  queryOptions({
    queryKey: searchKeys.documents(workspaceId),
    queryFn: ({ signal }) => getSearchableDocuments(workspaceId, signal),
  })

export function useSearchableDocuments(workspaceId: string) {
  return useQuery(getSearchableDocumentsQueryOptions(workspaceId))
}
