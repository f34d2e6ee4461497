import { queryOptions, useQuery } from '@tanstack/react-query'
import { supabase } from '@/lib/supabase'
import type { CollectionColor } from '../utils/colors'
import { collectionKeys } from './keys'

export type Collection = {
  id: string
  workspace_id: string
  name: string
  color: CollectionColor
  description: string
  created_by: string | null
  created_at: string
}

/** A workspace's collections (by name) and which documents each holds. */
export type Collections = {
  collections: Collection[]
  /** Document ids per collection id. */
  members: Map<string, Set<string>>
}

const PAGE = 1000

/** Every membership of the workspace, page by page (PostgREST answers 1,000 rows at most). */
async function getMemberships(workspaceId: string, signal: AbortSignal) {
  const rows: { collection_id: string; document_id: string }[] = []
  for (let from = 0; ; from += PAGE) {
    const { data, error } = await supabase
      .from('collection_documents')
      .select('collection_id, document_id')
      .eq('workspace_id', workspaceId)
      .order('collection_id')
      .order('document_id')
      .range(from, from + PAGE - 1)
      .abortSignal(signal)
    if (error) throw error
    rows.push(...data)
    if (data.length < PAGE) return rows
  }
}

export async function getCollections(
  workspaceId: string,
  signal: AbortSignal,
): Promise<Collections> {
  const [collections, memberships] = await Promise.all([
    supabase
      .from('collections')
      .select('*')
      .eq('workspace_id', workspaceId)
      .order('name')
      .abortSignal(signal),
    getMemberships(workspaceId, signal),
  ])
  if (collections.error) throw collections.error
  const members = new Map<string, Set<string>>(collections.data.map((c) => [c.id, new Set()]))
  for (const m of memberships) members.get(m.collection_id)?.add(m.document_id)
  return { collections: collections.data as Collection[], members }
}

export const getCollectionsQueryOptions = (workspaceId: string) =>
  queryOptions({
    queryKey: collectionKeys.list(workspaceId),
    queryFn: ({ signal }) => getCollections(workspaceId, signal),
  })

export function useCollections(workspaceId: string) {
  return useQuery(getCollectionsQueryOptions(workspaceId))
}
