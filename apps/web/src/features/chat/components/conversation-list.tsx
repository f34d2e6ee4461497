import { MessageSquarePlusIcon } from 'lucide-react'
import { useState } from 'react'
import { Button } from '@/components/ui/button'
import { Skeleton } from '@/components/ui/skeleton'
import { errorMessage } from '@/lib/errors'
import { useConversations } from '../api/get-conversations'
import { usePeople } from '../api/get-people'
import type { Conversation } from '../api/types'
import { useUpdateConversation } from '../api/update-conversation'
import { ConversationItem } from './conversation-item'
import { DeleteConversationDialog } from './delete-conversation-dialog'
import { RenameConversationDialog } from './rename-conversation-dialog'

type ConversationListProps = {
  workspaceId: string
  userId: string
  hrefFor: (conversationId: string) => string
  onNew: () => void
  creating: boolean
  onDeleted: (conversation: Conversation) => void
}

/** The workspace's conversations (own and shared), live, with new, rename, share and delete. */
export function ConversationList({
  workspaceId,
  userId,
  hrefFor,
  onNew,
  creating,
  onDeleted,
}: ConversationListProps) {
  const conversations = useConversations(workspaceId)
  const people = usePeople(workspaceId)
  const update = useUpdateConversation()
  const [renaming, setRenaming] = useState<Conversation | null>(null)
  const [deleting, setDeleting] = useState<Conversation | null>(null)

  return (
    <div className="flex h-full min-h-0 flex-col">
      <div className="p-3">
        <Button className="w-full" variant="outline" onClick={onNew} disabled={creating}>
          <MessageSquarePlusIcon />
          New conversation
        </Button>
      </div>
      <nav
        aria-label="Conversations"
        className="min-h-0 flex-1 overflow-x-hidden overflow-y-auto px-2 pb-3"
      >
        {conversations.isPending ? (
          <div className="grid gap-2 px-1">
            {[0, 1, 2].map((i) => (
              <Skeleton key={i} className="h-9" />
            ))}
          </div>
        ) : conversations.isError ? (
          <p className="text-destructive px-2 text-sm" role="alert">
            {errorMessage(conversations.error)}
          </p>
        ) : conversations.data.length === 0 ? (
          <p className="text-muted-foreground px-2 text-sm">No conversations yet.</p>
        ) : (
          <ul className="grid grid-cols-1 gap-0.5">
            {conversations.data.map((conversation) => {
              const mine = conversation.created_by === userId
              return (
                <ConversationItem
                  key={conversation.id}
                  conversation={conversation}
                  href={hrefFor(conversation.id)}
                  mine={mine}
                  creator={
                    mine ? null : (people.data?.get(conversation.created_by)?.name ?? 'a teammate')
                  }
                  onRename={() => setRenaming(conversation)}
                  onToggleShared={() =>
                    update.mutate({
                      id: conversation.id,
                      visibility: conversation.visibility === 'shared' ? 'private' : 'shared',
                    })
                  }
                  onDelete={() => setDeleting(conversation)}
                />
              )
            })}
          </ul>
        )}
      </nav>
      <RenameConversationDialog conversation={renaming} onClose={() => setRenaming(null)} />
      <DeleteConversationDialog
        // As the list now has it (shared since, say); as it was when gone from the list.
        conversation={conversations.data?.find((c) => c.id === deleting?.id) ?? deleting}
        onClose={() => setDeleting(null)}
        onDeleted={onDeleted}
      />
    </div>
  )
}
