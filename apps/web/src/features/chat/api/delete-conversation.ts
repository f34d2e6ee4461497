import { useMutation, useQueryClient } from '@tanstack/react-query'
import { toast } from 'sonner'
import { supabase } from '@/lib/supabase'
import { chatKeys } from './keys'
import type { Conversation } from './types'

/** Deletes a conversation and its messages (cascade); RLS lets only its creator. */
export async function deleteConversation(conversation: Conversation) {
  const { data, error } = await supabase
    .from('conversations')
    .delete()
    .eq('id', conversation.id)
    .select('id')
  if (error) throw error
  if (data.length === 0) throw new Error('Only the person who started it can delete it.')
}

/** A failure is shown by the confirm dialog that asked. */
export function useDeleteConversation(options: { onSuccess?: (c: Conversation) => void } = {}) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: deleteConversation,
    onSuccess: async (_, conversation) => {
      toast.success('Conversation deleted')
      queryClient.removeQueries({ queryKey: chatKeys.messages(conversation.id) })
      // Out of the list at once, not when the refetch (or one already under way) answers.
      const list = chatKeys.conversations(conversation.workspace_id)
      queryClient.setQueryData<Conversation[]>(list, (rows) =>
        rows?.filter((row) => row.id !== conversation.id),
      )
      options.onSuccess?.(conversation)
      await queryClient.invalidateQueries({ queryKey: list })
    },
  })
}
