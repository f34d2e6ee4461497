import { queryOptions, useQuery } from '@tanstack/react-query'
import { supabase } from '@/lib/supabase'
import { chatKeys } from './keys'

/** What decides whether an offline answer would come out again the same. */
export type LibraryState = {
  /** The workspace's chat model; null answers offline. */
  chatModel: string | null
  /** When a document of the workspace last changed (added, replaced, renamed), if any. */
  changedAt: string | null
}

export async function getLibraryState(
  workspaceId: string,
  signal: AbortSignal,
): Promise<LibraryState> {
  const [workspace, latest] = await Promise.all([
    supabase
      .from('workspaces')
      .select('chat_model')
      .eq('id', workspaceId)
      .abortSignal(signal)
      .single(),
    supabase
      .from('documents')
      .select('updated_at')
      .eq('workspace_id', workspaceId)
      .order('updated_at', { ascending: false })
      .limit(1)
      .abortSignal(signal),
  ])
  if (workspace.error) throw workspace.error
  if (latest.error) throw latest.error
  return { chatModel: workspace.data.chat_model, changedAt: latest.data[0]?.updated_at ?? null }
}

export const getLibraryStateQueryOptions = (workspaceId: string) =>
  queryOptions({
    queryKey: chatKeys.library(workspaceId),
    queryFn: ({ signal }) => getLibraryState(workspaceId, signal),
    // Asked again whenever an answer is shown: a document may have changed meanwhile.
    staleTime: 0,
  })

export function useLibraryState(workspaceId: string) {
  return useQuery(getLibraryStateQueryOptions(workspaceId))
}
