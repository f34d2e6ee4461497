import { useStartConversation } from '../hooks/use-start-conversation'
import { Composer } from './composer'
import { ExampleQuestions } from './example-questions'

/** No conversation open: example questions and a composer that starts a new conversation. */
export function ChatStart({ workspaceId }: { workspaceId: string }) {
  const { start, starting } = useStartConversation(workspaceId)
  return (
    <div className="flex h-full min-h-0 flex-col">
      <header className="border-b px-4 py-3 sm:px-8">
        <h1 className="text-base font-semibold">Chat</h1>
        <p className="text-muted-foreground text-xs">
          Ask questions; answers cite the passages they come from.
        </p>
      </header>
      <ExampleQuestions workspaceId={workspaceId} onAsk={start} />
      <Composer onSend={start} busy={starting} autoFocus />
    </div>
  )
}
