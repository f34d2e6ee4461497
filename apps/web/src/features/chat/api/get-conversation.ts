import { queryOptions, useQuery } from '@tanstack/react-query'
import { supabase } from '@/lib/supabase'
import { chatKeys } from './keys'
import type { Conversation } from './types'

/** One conversation, or null when it does not exist or the signed-in person may not see it. */
export async function getConversation(
  conversationId: string,
  signal: AbortSignal,
): Promise<Conversation | null> {
  const { data, error } = await supabase
    .from('conversations')
    .select('*')
    .eq('id', conversationId)
    .abortSignal(signal)
    .maybeSingle()
  if (error) {
    // A malformed id is simply a conversation that does not exist.
    if (error.code === '22P02') return null
    throw error
  }
  return data as Conversation | null
}

export const getConversationQueryOptions = (workspaceId: string, conversationId: string) =>
  queryOptions({
    queryKey: chatKeys.conversation(workspaceId, conversationId),
    queryFn: ({ signal }) => getConversation(conversationId, signal),
  })

export function useConversation(workspaceId: string, conversationId: string) {
  return useQuery(getConversationQueryOptions(workspaceId, conversationId))
}
