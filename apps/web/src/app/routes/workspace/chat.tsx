import { useNavigate } from 'react-router'
import { titleFromQuestion, useCreateConversation } from '@/features/chat/api/create-conversation'
import { ChatScreen } from '@/features/chat/components/chat-screen'
import { ChatStart } from '@/features/chat/components/chat-start'
import { useWorkspaceContext } from './context'

/** The chat with no conversation open: the list, example questions, and a fresh composer. */
export default function ChatRoute() {
  const { workspace, userId } = useWorkspaceContext()
  const navigate = useNavigate()
  const create = useCreateConversation()
  const base = `/w/${workspace.id}/chat`

  /** Starts a conversation; with a question, it is titled by it and asked on arrival. */
  function start(question?: string) {
    create.mutate(
      { workspaceId: workspace.id, title: question ? titleFromQuestion(question) : undefined },
      {
        onSuccess: (conversation) =>
          navigate(`${base}/${conversation.id}`, { state: question ? { ask: question } : null }),
      },
    )
  }

  return (
    <ChatScreen
      key={workspace.id}
      workspaceId={workspace.id}
      userId={userId}
      hrefFor={(id) => `${base}/${id}`}
      onNew={() => start()}
      creating={create.isPending}
      onDeleted={() => {}}
    >
      <ChatStart workspaceId={workspace.id} onAsk={start} busy={create.isPending} />
    </ChatScreen>
  )
}
