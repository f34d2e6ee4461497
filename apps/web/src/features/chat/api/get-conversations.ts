import { queryOptions, useQuery } from '@tanstack/react-query'
import { supabase } from '@/lib/supabase'
import { chatKeys } from './keys'
import type { Conversation } from './types'

/** The conversations the signed-in person may see here (their own and shared ones), newest first. */
export async function getConversations(
  workspaceId: string,
  signal: AbortSignal,
): Promise<Conversation[]> {
  const { data, error } = await supabase
    .from('conversations')
    .select('*')
    .eq('workspace_id', workspaceId)
    .order('updated_at', { ascending: false })
    .limit(200)
    .abortSignal(signal)
  if (error) throw error
  return data as Conversation[]
}

export const getConversationsQueryOptions = (workspaceId: string) =>
  queryOptions({
    queryKey: chatKeys.conversations(workspaceId),
    queryFn: ({ signal }) => getConversations(workspaceId, signal),
  })

export function useConversations(workspaceId: string) {
  return useQuery(getConversationsQueryOptions(workspaceId))
}
