import { queryOptions, useQuery } from '@tanstack/react-query'
import { supabase } from '@/lib/supabase'
import { chatKeys } from './keys'
import { type Message, type MessageStatus, parseCitations } from './types'

/**
 * A conversation's messages, oldest first, with the signed-in person's rating of each answer
 * (RLS shows everyone only their own feedback). Nothing when they may not see it.
 */
export async function getMessages(conversationId: string, signal: AbortSignal): Promise<Message[]> {
  const { data, error } = await supabase
    .from('messages')
    .select(
      'id, conversation_id, role, content, citations, status, error, model, extractive, created_by, created_at, message_feedback(rating, comment)',
    )
    .eq('conversation_id', conversationId)
    .order('created_at')
    .order('id')
    .abortSignal(signal)
  if (error) throw error
  return data.map(({ message_feedback: feedback, ...row }) => ({
    ...row,
    role: row.role as Message['role'],
    status: row.status as MessageStatus,
    citations: parseCitations(row.citations),
    feedback: feedback[0] ?? null,
  }))
}

export const getMessagesQueryOptions = (conversationId: string) =>
  queryOptions({
    queryKey: chatKeys.messages(conversationId),
    queryFn: ({ signal }) => getMessages(conversationId, signal),
  })

export function useMessages(conversationId: string) {
  return useQuery(getMessagesQueryOptions(conversationId))
}
