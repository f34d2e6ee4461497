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
    onSuccess: (conversation) =>
      queryClient.invalidateQueries({
        queryKey: chatKeys.conversations(conversation.workspace_id),
      }),
    meta: { failure: 'Could not change the conversation' },
  })
}
