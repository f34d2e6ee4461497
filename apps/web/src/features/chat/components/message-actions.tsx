import { CheckIcon, CopyIcon, RefreshCwIcon, ThumbsDownIcon, ThumbsUpIcon } from 'lucide-react'
import { Tooltip } from 'radix-ui'
import { useState } from 'react'
import { toast } from 'sonner'
import { Button } from '@/components/ui/button'
import { cn } from '@/lib/utils'
import { useRateAnswer } from '../api/rate-answer'
import type { Message } from '../api/types'
import { FeedbackDialog } from './feedback-dialog'

type MessageActionsProps = {
  message: Message
  onRegenerate?: () => void
  /** Why Regenerate is off, shown as its tooltip; null or absent when it is on. */
  regenerateBlocked?: string | null
}

/** Copy, thumbs up or down (with an optional comment), and Regenerate on the last answer. */
export function MessageActions({ message, onRegenerate, regenerateBlocked }: MessageActionsProps) {
  const rate = useRateAnswer(message.conversation_id)
  const [copied, setCopied] = useState(false)
  const [asking, setAsking] = useState<1 | -1 | null>(null)
  const rating = message.feedback?.rating ?? null

  async function copy() {
    try {
      await navigator.clipboard.writeText(message.content)
      setCopied(true)
      setTimeout(() => setCopied(false), 1500)
    } catch {
      toast.error('Could not copy: the browser refused access to the clipboard.')
    }
  }

  function choose(value: 1 | -1) {
    rate.mutate(
      { messageId: message.id, rating: value, comment: message.feedback?.comment ?? null },
      { onSuccess: () => setAsking(value) },
    )
  }

  const thumb = (value: 1 | -1, label: string, Icon: typeof ThumbsUpIcon) => (
    <Button
      size="icon-sm"
      variant="ghost"
      aria-label={label}
      aria-pressed={rating === value}
      disabled={rate.isPending}
      onClick={() => choose(value)}
      className={cn(rating === value && 'text-foreground bg-accent')}
    >
      <Icon />
    </Button>
  )

  // A failed answer with no text has nothing to copy or rate, only to try again.
  const hasText = message.content.trim() !== ''
  return (
    <div className="text-muted-foreground mt-1 flex items-center gap-0.5">
      {hasText ? (
        <>
          <Button size="icon-sm" variant="ghost" aria-label="Copy answer" onClick={copy}>
            {copied ? <CheckIcon /> : <CopyIcon />}
          </Button>
          {thumb(1, 'Good answer', ThumbsUpIcon)}
          {thumb(-1, 'Bad answer', ThumbsDownIcon)}
        </>
      ) : null}
      {onRegenerate && regenerateBlocked ? (
        <Tooltip.Root>
          <Tooltip.Trigger asChild>
            {/* aria-disabled, not disabled: the button stays focusable so its reason can be read. */}
            <Button
              size="sm"
              variant="ghost"
              aria-disabled
              aria-describedby={`regenerate-why-${message.id}`}
              className="cursor-not-allowed opacity-50 hover:bg-transparent"
              onClick={(event) => event.preventDefault()}
            >
              <RefreshCwIcon />
              Regenerate
            </Button>
          </Tooltip.Trigger>
          <span id={`regenerate-why-${message.id}`} className="sr-only">
            {regenerateBlocked}
          </span>
          <Tooltip.Portal>
            <Tooltip.Content
              side="top"
              sideOffset={6}
              collisionPadding={12}
              className="bg-popover text-popover-foreground z-50 max-w-72 rounded-lg border px-3 py-2 text-xs shadow-md"
            >
              {regenerateBlocked}
            </Tooltip.Content>
          </Tooltip.Portal>
        </Tooltip.Root>
      ) : onRegenerate ? (
        <Button size="sm" variant="ghost" onClick={onRegenerate}>
          <RefreshCwIcon />
          Regenerate
        </Button>
      ) : null}
      <FeedbackDialog
        key={asking ?? 0}
        rating={asking}
        initialComment={message.feedback?.comment ?? ''}
        saving={rate.isPending}
        onClose={() => setAsking(null)}
        onSave={(comment) =>
          rate.mutate(
            { messageId: message.id, rating: asking ?? 1, comment },
            {
              onSuccess: () => {
                setAsking(null)
                toast.success('Thanks for the feedback')
              },
            },
          )
        }
      />
    </div>
  )
}
