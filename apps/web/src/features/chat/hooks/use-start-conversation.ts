import { useNavigate } from 'react-router'
import { titleFromQuestion, useCreateConversation } from '../api/create-conversation'
import type { Scope } from '../api/types'

/** The chat page, or one conversation in it. */
export const chatPath = (workspaceId: string, conversationId?: string) =>
  conversationId ? `/w/${workspaceId}/chat/${conversationId}` : `/w/${workspaceId}/chat`

/**
 * Starts a conversation and opens it. With a question, the conversation is titled by it and
 * the question is asked on arrival (passed in the navigation state). With a scope, it answers
 * from those documents and collections only.
 */
export function useStartConversation(workspaceId: string) {
  const navigate = useNavigate()
  const create = useCreateConversation()
  function start(question?: string, scope?: Scope) {
    create.mutate(
      {
        workspaceId,
        title: question ? titleFromQuestion(question) : undefined,
        documentIds: scope?.documentIds,
        collectionIds: scope?.collectionIds,
      },
      {
        onSuccess: (conversation) =>
          navigate(chatPath(workspaceId, conversation.id), {
            state: question ? { ask: question } : null,
          }),
      },
    )
  }
  return { start, starting: create.isPending }
}
