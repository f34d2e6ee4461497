import { NO_ANSWER } from '@sourcebook/core/chat/no-answer'
import { BookOpenTextIcon, CircleAlertIcon, SquareIcon } from 'lucide-react'
import type { Person } from '../api/get-people'
import type { Message } from '../api/types'
import { AnswerMarkdown } from './answer-markdown'
import { ClosestPassages } from './closest-passages'
import { MessageActions } from './message-actions'
import { SourcesPanel } from './sources-panel'

type MessageItemProps = {
  message: Message
  workspaceId: string
  /** Who asked, when it was someone else (shared conversations). */
  asker: Person | null
  onRegenerate?: () => void
  /** Why Regenerate is off (the answer would come out the same), if it is. */
  regenerateBlocked?: string | null
}

function Thinking() {
  return (
    <span className="text-muted-foreground inline-flex items-center gap-1 text-sm" role="status">
      <span className="sr-only">Answering…</span>
      {[0, 150, 300].map((delay) => (
        <span
          key={delay}
          className="bg-muted-foreground/60 size-1.5 animate-pulse rounded-full"
          style={{ animationDelay: `${delay}ms` }}
          aria-hidden
        />
      ))}
    </span>
  )
}

/** One message: a question on the right, or an answer with its citations, state and actions. */
export function MessageItem({
  message,
  workspaceId,
  asker,
  onRegenerate,
  regenerateBlocked,
}: MessageItemProps) {
  if (message.role === 'user') {
    return (
      <div className="flex flex-col items-end" data-testid="user-message">
        {asker ? <span className="text-muted-foreground mb-1 text-xs">{asker.name}</span> : null}
        <p className="bg-primary text-primary-foreground max-w-[85%] rounded-2xl rounded-br-md px-4 py-2 text-sm whitespace-pre-wrap">
          {message.content}
        </p>
      </div>
    )
  }
  const streaming = message.status === 'streaming'
  // An offline answer that found nothing stores the closest passages to show instead.
  const unanswered = message.extractive && !streaming && message.content.trim() === NO_ANSWER
  return (
    <article
      className="min-w-0"
      aria-label="Answer"
      aria-busy={streaming}
      data-testid="assistant-message"
      data-status={message.status}
    >
      {message.extractive ? (
        <p className="text-muted-foreground mb-2 flex items-center gap-1.5 text-xs">
          <BookOpenTextIcon className="size-3.5" aria-hidden />
          Extracted from your documents — no AI model is configured
        </p>
      ) : null}
      {message.content ? (
        <AnswerMarkdown
          content={message.content}
          citations={message.citations}
          workspaceId={workspaceId}
          messageId={message.id}
        />
      ) : streaming ? (
        <Thinking />
      ) : null}
      {message.status === 'stopped' ? (
        <p className="text-muted-foreground mt-2 flex items-center gap-1.5 text-xs">
          <SquareIcon className="size-3" aria-hidden />
          Stopped
        </p>
      ) : null}
      {message.status === 'failed' ? (
        <p
          role="alert"
          className="border-destructive/30 bg-destructive/5 text-destructive mt-2 flex items-start gap-2 rounded-md border px-3 py-2 text-sm"
        >
          <CircleAlertIcon className="mt-0.5 size-4 shrink-0" aria-hidden />
          {message.error ?? 'The answer failed.'}
        </p>
      ) : null}
      {unanswered ? (
        <ClosestPassages passages={message.citations} workspaceId={workspaceId} />
      ) : (
        <SourcesPanel
          citations={message.citations}
          workspaceId={workspaceId}
          messageId={message.id}
        />
      )}
      {!streaming && !message.id.startsWith('pending') ? (
        <MessageActions
          message={message}
          onRegenerate={onRegenerate}
          regenerateBlocked={regenerateBlocked}
        />
      ) : null}
    </article>
  )
}
