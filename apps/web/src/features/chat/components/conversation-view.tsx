import { Tooltip } from 'radix-ui'
import { useEffect, useMemo, useRef } from 'react'
import { Skeleton } from '@/components/ui/skeleton'
import { useConnectionDown } from '@/hooks/use-connection'
import { errorMessage } from '@/lib/errors'
import { titleFromQuestion } from '../api/create-conversation'
import { useLibraryState } from '../api/get-library-state'
import { useMentionOptions } from '../api/get-mention-options'
import { useMessages } from '../api/get-messages'
import { usePeople } from '../api/get-people'
import { type Conversation, DEFAULT_TITLE } from '../api/types'
import { useUpdateConversation } from '../api/update-conversation'
import { useChatStream } from '../hooks/use-chat-stream'
import { useConversationChannel } from '../hooks/use-conversation-channel'
import { withLiveAnswer } from '../utils/live-answer'
import { type MentionOption, withMention } from '../utils/mention'
import { regenerateBlock } from '../utils/regenerate-block'
import { Composer } from './composer'
import { ConversationDeleted } from './conversation-deleted'
import { ConversationHeader } from './conversation-header'
import { ExampleQuestions } from './example-questions'
import { MessageList } from './message-list'
import { UnsentQuestion } from './unsent-question'

type ConversationViewProps = {
  conversation: Conversation
  userId: string
  userName: string
  /** A question to ask as soon as the conversation opens (asked from the chat start page). */
  initialQuestion?: string | null
  onInitialQuestionTaken?: () => void
  /** Deleted by someone else while open: what is on screen stays, asking does not. */
  deleted?: { by: string | null; backTo: string }
}

/** One conversation: its messages, live for everyone in it, and the composer. */
export function ConversationView({
  conversation,
  userId,
  userName,
  initialQuestion,
  onInitialQuestionTaken,
  deleted,
}: ConversationViewProps) {
  const workspaceId = conversation.workspace_id
  const messages = useMessages(conversation.id)
  const people = usePeople(workspaceId)
  const me = useMemo(() => ({ userId, name: userName }), [userId, userName])
  const { remote, present, setTyping } = useConversationChannel(conversation.id, me)
  const chat = useChatStream(conversation.id)
  const update = useUpdateConversation()
  const offline = useConnectionDown()
  const library = useLibraryState(workspaceId)
  // Only its creator may change the scope, so only they get @-mentions.
  const mine = conversation.created_by === userId && !deleted
  const mentionable = useMentionOptions(workspaceId, mine)
  const inScope = new Set([
    ...(conversation.document_ids ?? []),
    ...(conversation.collection_ids ?? []),
  ])
  const mentionOptions = mine
    ? (mentionable.data ?? []).filter((option) => !inScope.has(option.id))
    : undefined

  function mention(option: MentionOption) {
    update.mutate({ id: conversation.id, ...withMention(conversation, option) })
  }

  function ask(question: string) {
    // The first question names a conversation nobody has named yet.
    if (conversation.title === DEFAULT_TITLE && conversation.created_by === userId) {
      update.mutate({ id: conversation.id, title: titleFromQuestion(question) })
    }
    void chat.send({ content: question })
  }

  const asked = useRef(false)
  useEffect(() => {
    if (!initialQuestion || asked.current) return
    asked.current = true
    onInitialQuestionTaken?.()
    void chat.send({ content: initialQuestion })
  }, [initialQuestion, onInitialQuestionTaken, chat])

  // Someone else's answer streaming shows here too; this person's own request comes first.
  const shown = withLiveAnswer(messages.data ?? [], chat.live ?? remote)
  const peopleMap = people.data ?? new Map()
  const last = shown.at(-1)
  const regenerateBlocked = last?.role === 'assistant' ? regenerateBlock(last, library.data) : null

  return (
    <Tooltip.Provider delayDuration={150}>
      <div className="flex h-full min-h-0 flex-col">
        <ConversationHeader
          conversation={conversation}
          userId={userId}
          people={peopleMap}
          present={deleted ? [] : present}
        />
        {messages.isPending ? (
          <div className="mx-auto grid w-full max-w-3xl flex-1 content-start gap-4 p-8">
            <Skeleton className="ml-auto h-10 w-1/2" />
            <Skeleton className="h-24" />
          </div>
        ) : messages.isError ? (
          <p role="alert" className="text-destructive flex-1 p-8 text-sm">
            {errorMessage(messages.error)}
          </p>
        ) : shown.length === 0 && !deleted ? (
          <ExampleQuestions workspaceId={workspaceId} scope={conversation} onAsk={ask} />
        ) : (
          <MessageList
            messages={shown}
            workspaceId={workspaceId}
            userId={userId}
            people={peopleMap}
            onRegenerate={
              chat.busy || deleted
                ? undefined
                : (answerId) => void chat.send({ regenerate: answerId })
            }
            regenerateBlocked={regenerateBlocked}
          />
        )}
        {deleted ? (
          <ConversationDeleted by={deleted.by} backTo={deleted.backTo} />
        ) : chat.unsent ? (
          <UnsentQuestion unsent={chat.unsent} onRetry={chat.retry} offline={offline} />
        ) : null}
        <Composer
          key={conversation.id}
          onSend={ask}
          busy={chat.busy}
          onStop={chat.busy ? chat.stop : undefined}
          onTyping={setTyping}
          autoFocus
          disabled={deleted !== undefined}
          mentionOptions={mentionOptions}
          onMention={mine ? mention : undefined}
        />
      </div>
    </Tooltip.Provider>
  )
}
