import { useMutation, useQueryClient } from '@tanstack/react-query'
import { z } from 'zod'
import { supabase } from '@/lib/supabase'
import { chatKeys } from './keys'
import type { Conversation } from './types'

export const updateConversationInputSchema = z.object({
  id: z.string().uuid(),
  title: z.string().trim().min(1, 'Give it a title').max(200, 'At most 200 characters').optional(),
  visibility: z.enum(['private', 'shared']).optional(),
  document_ids: z.array(z.string().uuid()).max(100).nullable().optional(),
  collection_ids: z.array(z.string().uuid()).max(100).nullable().optional(),
})

export type UpdateConversationInput = z.input<typeof updateConversationInputSchema>

/** Renames, shares or rescopes a conversation; RLS lets only its creator. */
export async function updateConversation(input: UpdateConversationInput): Promise<Conversation> {
  const { id, ...changes } = updateConversationInputSchema.parse(input)
  const { data, error } = await supabase
    .from('conversations')
    .update(changes)
    .eq('id', id)
    .select()
    .single()
  if (error) throw error
  return data as Conversation
}

export function useUpdateConversation() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: updateConversation,
    onSuccess: (conversation) => {
      // The stored row goes into the list and the open conversation at once: refetched
      // separately, one could show the change while the other (and a dialog opened from it)
      // still showed the old row. The refetch then brings the list's order.
      const list = chatKeys.conversations(conversation.workspace_id)
      queryClient.setQueryData(
        chatKeys.conversation(conversation.workspace_id, conversation.id),
        conversation,
      )
      queryClient.setQueryData<Conversation[]>(list, (rows) =>
        rows?.map((row) => (row.id === conversation.id ? conversation : row)),
      )
      return queryClient.invalidateQueries({ queryKey: list })
    },
    meta: { failure: 'Could not change the conversation' },
  })
}
