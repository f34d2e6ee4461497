import { ListIcon } from 'lucide-react'
import { useState } from 'react'
import type * as React from 'react'
import { useNavigate, useSearchParams } from 'react-router'
import { Button } from '@/components/ui/button'
import { Sheet, SheetContent, SheetDescription, SheetTitle } from '@/components/ui/sheet'
import { cn } from '@/lib/utils'
import { useConversationsRealtime } from '../hooks/use-conversations-realtime'
import { hasOpenCitation } from '../hooks/use-open-citation'
import { chatPath, useStartConversation } from '../hooks/use-start-conversation'
import { ConversationList } from './conversation-list'

type ChatScreenProps = {
  workspaceId: string
  userId: string
  /** The open conversation, if any: deleting it goes back to the chat page. */
  conversationId?: string
  children: React.ReactNode
}

/**
 * The chat's frame: the conversation list beside the open conversation on wide screens, and
 * in a sheet behind a button on phones. It fills the window so the composer stays in view.
 */
export function ChatScreen({ workspaceId, userId, conversationId, children }: ChatScreenProps) {
  const [listOpen, setListOpen] = useState(false)
  const navigate = useNavigate()
  const { start, starting } = useStartConversation(workspaceId)
  // An open citation's panel takes the list's place, unless the window is wide enough for both.
  const citing = hasOpenCitation(useSearchParams()[0])
  // Once here: the list may be on screen twice (sidebar and phone sheet).
  useConversationsRealtime(workspaceId)
  const list = (
    <ConversationList
      workspaceId={workspaceId}
      userId={userId}
      hrefFor={(id) => chatPath(workspaceId, id)}
      creating={starting}
      onNew={() => {
        setListOpen(false)
        start()
      }}
      onDeleted={(deleted) => {
        if (deleted.id === conversationId) navigate(chatPath(workspaceId), { replace: true })
      }}
    />
  )
  return (
    <div className="flex h-[calc(100svh-3.3rem-var(--connection-banner))] md:h-[calc(100svh-var(--connection-banner))]">
      <aside
        className={cn('hidden w-64 shrink-0 border-r md:block', citing && 'lg:hidden 2xl:block')}
        aria-label="Conversation list"
      >
        {list}
      </aside>
      <div className="flex min-w-0 flex-1 flex-col">
        <div className="border-b px-2 py-1.5 md:hidden">
          <Button size="sm" variant="ghost" onClick={() => setListOpen(true)}>
            <ListIcon />
            Conversations
          </Button>
        </div>
        <div className="min-h-0 flex-1">{children}</div>
      </div>
      <Sheet open={listOpen} onOpenChange={setListOpen}>
        <SheetContent
          className="p-0 pt-10"
          onClick={(event) => {
            // Choosing a conversation closes the sheet.
            if ((event.target as HTMLElement).closest('a')) setListOpen(false)
          }}
        >
          <SheetTitle className="sr-only">Conversations</SheetTitle>
          <SheetDescription className="sr-only">
            Your and your teammates’ conversations
          </SheetDescription>
          {list}
        </SheetContent>
      </Sheet>
    </div>
  )
}
