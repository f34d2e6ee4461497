import { SearchXIcon } from 'lucide-react'
import { useQueryClient } from '@tanstack/react-query'
import { useCallback, useState } from 'react'
import { Link, useLocation, useNavigate, useParams } from 'react-router'
import { EmptyState } from '@/components/layout/empty-state'
import { Button } from '@/components/ui/button'
import { Skeleton } from '@/components/ui/skeleton'
import { useConversation } from '@/features/chat/api/get-conversation'
import { chatKeys } from '@/features/chat/api/keys'
import type { Conversation } from '@/features/chat/api/types'
import { usePeople } from '@/features/chat/api/get-people'
import { ChatScreen } from '@/features/chat/components/chat-screen'
import { CitationBeside } from '@/features/chat/components/citation-beside'
import { ConversationView } from '@/features/chat/components/conversation-view'
import { chatPath } from '@/features/chat/hooks/use-start-conversation'
import { CitedPassage } from './cited-passage'
import { useWorkspaceContext } from './context'

/** One conversation, beside the list. */
export default function ChatConversationRoute() {
  const { workspace, userId } = useWorkspaceContext()
  const { conversationId = '' } = useParams()
  const location = useLocation()
  const navigate = useNavigate()
  const conversation = useConversation(workspace.id, conversationId)
  const people = usePeople(workspace.id)
  const queryClient = useQueryClient()
  // The conversation as last seen, so that one deleted while open stays on screen, marked so.
  const [seen, setSeen] = useState<Conversation | null>(null)
  if (conversation.data && conversation.data !== seen) setSeen(conversation.data)
  const deletedWhileOpen =
    conversation.data === null &&
    seen?.id === conversationId &&
    queryClient.getQueryData<boolean>(chatKeys.deleted(conversationId)) === true
  const shown = deletedWhileOpen ? seen : conversation.data
  const ask = (location.state as { ask?: string } | null)?.ask ?? null
  // Asked once: a reload must not ask again.
  const takeQuestion = useCallback(
    () => navigate(location.pathname, { replace: true, state: null }),
    [navigate, location.pathname],
  )

  return (
    <ChatScreen
      key={workspace.id}
      workspaceId={workspace.id}
      userId={userId}
      conversationId={conversationId}
    >
      {shown && people.data ? (
        // One tree for the live and the deleted conversation, so the deleted state keeps the
        // composer (and its draft) rather than mounting a new one.
        <CitationBeside
          conversationId={shown.id}
          renderCitation={(citation, key, close) => (
            <CitedPassage
              workspaceId={workspace.id}
              citation={citation}
              citationKey={key}
              onClose={close}
            />
          )}
        >
          <ConversationView
            key={shown.id}
            conversation={shown}
            userId={userId}
            userName={people.data.get(userId)?.name ?? 'Member'}
            initialQuestion={ask}
            onInitialQuestionTaken={takeQuestion}
            deleted={
              deletedWhileOpen
                ? {
                    by: people.data.get(shown.created_by)?.name ?? null,
                    backTo: chatPath(workspace.id),
                  }
                : undefined
            }
          />
        </CitationBeside>
      ) : conversation.data === null ? (
        <EmptyState
          icon={SearchXIcon}
          title="Conversation not found"
          action={
            <Button asChild variant="outline">
              <Link to={chatPath(workspace.id)}>Back to chat</Link>
            </Button>
          }
        >
          It was deleted, made private, or was never shared with you.
        </EmptyState>
      ) : (
        <div className="grid gap-4 p-8">
          <Skeleton className="h-8 w-1/3" />
          <Skeleton className="h-24" />
        </div>
      )}
    </ChatScreen>
  )
}
