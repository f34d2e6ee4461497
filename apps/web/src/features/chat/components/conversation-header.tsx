import { LockIcon, UsersIcon } from 'lucide-react'
import { Button } from '@/components/ui/button'
import type { Person } from '../api/get-people'
import type { Conversation } from '../api/types'
import { useUpdateConversation } from '../api/update-conversation'
import type { Presence } from '../hooks/use-conversation-channel'
import { PresenceBar } from './presence-bar'
import { ScopeChips } from './scope-chips'

type ConversationHeaderProps = {
  conversation: Conversation
  userId: string
  people: Map<string, Person>
  present: Presence[]
}

/**
 * The conversation's title, what it answers from, its private/shared switch (creator only)
 * and who is here.
 */
export function ConversationHeader({
  conversation,
  userId,
  people,
  present,
}: ConversationHeaderProps) {
  const update = useUpdateConversation()
  const shared = conversation.visibility === 'shared'
  const mine = conversation.created_by === userId
  return (
    <header className="flex items-center gap-3 border-b px-4 py-3 sm:px-8">
      <div className="min-w-0 flex-1">
        <h1 className="truncate text-base font-semibold">{conversation.title}</h1>
        <p className="text-muted-foreground text-xs">
          {shared
            ? mine
              ? 'Shared with the workspace'
              : `Shared by ${people.get(conversation.created_by)?.name ?? 'a teammate'}`
            : 'Private: only you can see it'}
        </p>
        <ScopeChips conversation={conversation} editable={mine} />
      </div>
      <PresenceBar present={present} userId={userId} people={people} />
      {mine ? (
        <Button
          size="sm"
          variant="outline"
          aria-pressed={shared}
          disabled={update.isPending}
          onClick={() =>
            update.mutate({ id: conversation.id, visibility: shared ? 'private' : 'shared' })
          }
        >
          {shared ? <UsersIcon /> : <LockIcon />}
          {shared ? 'Shared' : 'Share'}
        </Button>
      ) : null}
    </header>
  )
}
