import { useMutation, useQueryClient } from '@tanstack/react-query'
import { z } from 'zod'
import { supabase } from '@/lib/supabase'
import { chatKeys } from './keys'
import { type Conversation, DEFAULT_TITLE } from './types'

export const createConversationInputSchema = z.object({
  workspaceId: z.string().uuid(),
  title: z.string().trim().min(1).max(200).default(DEFAULT_TITLE),
  documentIds: z.array(z.string().uuid()).max(100).optional(),
  collectionIds: z.array(z.string().uuid()).max(100).optional(),
})

export type CreateConversationInput = z.input<typeof createConversationInputSchema>

export async function createConversation(input: CreateConversationInput): Promise<Conversation> {
  const { workspaceId, title, documentIds, collectionIds } =
    createConversationInputSchema.parse(input)
  const { data, error } = await supabase
    .from('conversations')
    .insert({
      workspace_id: workspaceId,
      title,
      // Either list alone scopes the conversation; neither leaves it the whole workspace.
      document_ids: documentIds ?? (collectionIds ? [] : null),
      collection_ids: collectionIds ?? (documentIds ? [] : null),
    })
    .select()
    .single()
  if (error) throw error
  return data as Conversation
}

export function useCreateConversation() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: createConversation,
    onSuccess: (conversation) =>
      queryClient.invalidateQueries({
        queryKey: chatKeys.conversations(conversation.workspace_id),
      }),
    meta: { failure: 'Could not start a conversation' },
  })
}

/** A title from the first question: its first line, cut at a word near 80 characters. */
export function titleFromQuestion(question: string): string {
  const line = question.trim().split('\n')[0]!.replace(/\s+/g, ' ')
  if (line.length <= 80) return line || DEFAULT_TITLE
  const cut = line.slice(0, 80)
  const space = cut.lastIndexOf(' ')
  return `${(space > 40 ? cut.slice(0, space) : cut).trimEnd()}…`
}
