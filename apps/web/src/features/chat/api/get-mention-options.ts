import { queryOptions, useQuery } from '@tanstack/react-query'
import { supabase } from '@/lib/supabase'
import type { MentionOption } from '../utils/mention'
import { chatKeys } from './keys'

/** Collections first, then ready documents, by name: what an @ in a question can name. */
export async function getMentionOptions(
  workspaceId: string,
  signal: AbortSignal,
): Promise<MentionOption[]> {
  const [collections, documents] = await Promise.all([
    supabase
      .from('collections')
      .select('id, name')
      .eq('workspace_id', workspaceId)
      .order('name')
      .abortSignal(signal),
    // The first thousand titles (one page): enough to complete from in most libraries.
    supabase
      .from('documents')
      .select('id, title')
      .eq('workspace_id', workspaceId)
      .eq('status', 'ready')
      .order('title')
      .limit(1000)
      .abortSignal(signal),
  ])
  if (collections.error) throw collections.error
  if (documents.error) throw documents.error
  return [
    ...collections.data.map((c) => ({ kind: 'collection' as const, id: c.id, name: c.name })),
    ...documents.data.map((d) => ({ kind: 'document' as const, id: d.id, name: d.title })),
  ]
}

export const getMentionOptionsQueryOptions = (workspaceId: string) =>
  queryOptions({
    queryKey: chatKeys.mentions(workspaceId),
    queryFn: ({ signal }) => getMentionOptions(workspaceId, signal),
  })

export function useMentionOptions(workspaceId: string, enabled: boolean) {
  return useQuery({ ...getMentionOptionsQueryOptions(workspaceId), enabled })
}
