import { ChatScreen } from '@/features/chat/components/chat-screen'
import { ChatStart } from '@/features/chat/components/chat-start'
import { useWorkspaceContext } from './context'

/** The chat with no conversation open: the list, example questions, and a fresh composer. */
export default function ChatRoute() {
  const { workspace, userId } = useWorkspaceContext()
  return (
    <ChatScreen key={workspace.id} workspaceId={workspace.id} userId={userId}>
      <ChatStart workspaceId={workspace.id} />
    </ChatScreen>
  )
}
