import { observeElementRect, useVirtualizer } from '@tanstack/react-virtual'
import { ArrowDownIcon } from 'lucide-react'
import { useLayoutEffect, useRef, useState } from 'react'
import { Button } from '@/components/ui/button'
import type { Person } from '../api/get-people'
import type { Message } from '../api/types'
import { MessageItem } from './message-item'

type MessageListProps = {
  messages: Message[]
  workspaceId: string
  userId: string
  people: Map<string, Person>
  /** Regenerates the last answer; absent while an answer streams. */
  onRegenerate?: (answerId: string) => void
  /** Why regenerating the last answer is off (it would come out the same), if it is. */
  regenerateBlocked?: string | null
}

/** Within this many pixels of the end counts as "at the bottom" and keeps following. */
const NEAR_BOTTOM = 96

/**
 * The conversation, virtualized (only what is on screen is rendered). It follows the end as
 * answers stream in, unless the person has scrolled up to read; then a button takes them back.
 */
export function MessageList({
  messages,
  workspaceId,
  userId,
  people,
  onRegenerate,
  regenerateBlocked,
}: MessageListProps) {
  const scrollRef = useRef<HTMLDivElement>(null)
  const [following, setFollowing] = useState(true)
  // The app does not use the React Compiler, so the virtualizer's unmemoizable API is fine.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: messages.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => 120,
    getItemKey: (index) => messages[index]!.id,
    overscan: 6,
    // Before layout (or without one, as in tests) the list has no height; assume the window's
    // rather than rendering nothing.
    observeElementRect: (instance, callback) =>
      observeElementRect(instance, (rect) =>
        callback(rect.height > 0 ? rect : { width: rect.width, height: window.innerHeight }),
      ),
  })
  const last = messages.at(-1)
  // Only the person who asked may have the last answer written again.
  const question = messages.at(-2)
  const lastAnswer =
    last?.role === 'assistant' && !last.id.startsWith('pending') && question?.created_by === userId
      ? last
      : null

  // New messages, streamed text and measured heights grow the list: stay at the end if the
  // reader was there (which includes opening the conversation).
  const size = virtualizer.getTotalSize()
  useLayoutEffect(() => {
    const element = scrollRef.current
    if (following && element) element.scrollTop = element.scrollHeight
  }, [following, size, messages.length, last?.content])

  function onScroll() {
    const element = scrollRef.current
    if (!element) return
    setFollowing(element.scrollHeight - element.scrollTop - element.clientHeight < NEAR_BOTTOM)
  }

  return (
    <div className="relative min-h-0 flex-1">
      <div
        ref={scrollRef}
        onScroll={onScroll}
        className="h-full overflow-y-auto"
        role="log"
        aria-label="Messages"
      >
        <div className="relative mx-auto w-full max-w-3xl" style={{ height: size }}>
          {virtualizer.getVirtualItems().map((item) => {
            const message = messages[item.index]!
            const asker =
              message.role === 'user' && message.created_by && message.created_by !== userId
                ? (people.get(message.created_by) ?? { name: 'A teammate', color: '#71717a' })
                : null
            return (
              <div
                key={item.key}
                data-index={item.index}
                ref={virtualizer.measureElement}
                className="absolute inset-x-0 px-4 py-3 sm:px-8"
                style={{ transform: `translateY(${item.start}px)` }}
              >
                <MessageItem
                  message={message}
                  workspaceId={workspaceId}
                  asker={asker}
                  onRegenerate={
                    onRegenerate && message.id === lastAnswer?.id
                      ? () => onRegenerate(message.id)
                      : undefined
                  }
                  regenerateBlocked={message.id === lastAnswer?.id ? regenerateBlocked : null}
                />
              </div>
            )
          })}
        </div>
      </div>
      {!following ? (
        <Button
          size="sm"
          variant="outline"
          className="absolute bottom-3 left-1/2 -translate-x-1/2 rounded-full shadow-md"
          onClick={() => {
            setFollowing(true)
            virtualizer.scrollToIndex(messages.length - 1, { align: 'end' })
          }}
        >
          <ArrowDownIcon />
          Latest
        </Button>
      ) : null}
    </div>
  )
}
