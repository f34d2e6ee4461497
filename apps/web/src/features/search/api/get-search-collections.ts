import { queryOptions, useQuery } from '@tanstack/react-query'
import { supabase } from '@/lib/supabase'
import { searchKeys } from './keys'

export type SearchCollection = { id: string; name: string }

/** The workspace's collections, to narrow a search to one. */
export async function getSearchCollections(
  workspaceId: string,
  signal: AbortSignal,
): Promise<SearchCollection[]> {
  const { data, error } = await supabase
    .from('collections')
    .select('id, name')
    .eq('workspace_id', workspaceId)
    .order('name')
    .abortSignal(signal)
  if (error) throw error
  return data
}

export const getSearchCollectionsQueryOptions = (workspaceId: string) =>
  queryOptions({
    queryKey: searchKeys.collections(workspaceId),
    queryFn: ({ signal }) => getSearchCollections(workspaceId, signal),
  })

export function useSearchCollections(workspaceId: string) {
  return useQuery(getSearchCollectionsQueryOptions(workspaceId))
}
