import { ArrowUpIcon, SquareIcon } from 'lucide-react'
import { useEffect, useRef, useState } from 'react'
import { Button } from '@/components/ui/button'
import { cn } from '@/lib/utils'
import { MAX_QUESTION_LENGTH } from '../api/types'

type ComposerProps = {
  onSend: (question: string) => void
  /** While an answer streams: sending is off and Stop is offered. */
  busy: boolean
  onStop?: () => void
  onTyping?: (typing: boolean) => void
  autoFocus?: boolean
  placeholder?: string
  /** Nothing can be asked here any more (the conversation was deleted). */
  disabled?: boolean
}

/** How long after the last keystroke someone stops "typing" for the others. */
const TYPING_IDLE_MS = 2500

/** The question box: Enter sends, Shift+Enter breaks the line; Stop while answering. */
export function Composer({
  onSend,
  busy,
  onStop,
  onTyping,
  autoFocus,
  placeholder,
  disabled,
}: ComposerProps) {
  const [text, setText] = useState('')
  const idle = useRef<ReturnType<typeof setTimeout> | undefined>(undefined)
  const box = useRef<HTMLTextAreaElement>(null)
  const length = text.length
  const tooLong = length > MAX_QUESTION_LENGTH
  const canSend = !busy && !disabled && text.trim() !== '' && !tooLong

  useEffect(() => () => clearTimeout(idle.current), [])

  // Grow with the text, up to a limit, then scroll.
  useEffect(() => {
    const element = box.current
    if (!element) return
    element.style.height = 'auto'
    element.style.height = `${Math.min(element.scrollHeight, 200)}px`
  }, [text])

  function typing(value: string) {
    setText(value)
    clearTimeout(idle.current)
    onTyping?.(value.trim() !== '')
    idle.current = setTimeout(() => onTyping?.(false), TYPING_IDLE_MS)
  }

  function send() {
    if (!canSend) return
    onSend(text.trim())
    setText('')
    clearTimeout(idle.current)
    onTyping?.(false)
  }

  return (
    <form
      className="bg-background border-t px-4 pt-3 pb-4 sm:px-8"
      onSubmit={(event) => {
        event.preventDefault()
        send()
      }}
    >
      <div
        className={cn(
          'bg-card focus-within:border-ring focus-within:ring-ring/50 mx-auto flex max-w-3xl items-end gap-2 rounded-2xl border p-2 shadow-xs focus-within:ring-[3px]',
          tooLong && 'border-destructive',
        )}
      >
        <textarea
          ref={box}
          rows={1}
          value={text}
          autoFocus={autoFocus}
          disabled={disabled}
          aria-label="Ask a question"
          aria-describedby={tooLong ? 'composer-limit' : undefined}
          aria-invalid={tooLong}
          placeholder={placeholder ?? 'Ask about your documents…'}
          onChange={(event) => typing(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
              event.preventDefault()
              send()
            }
          }}
          className="placeholder:text-muted-foreground max-h-50 min-h-9 flex-1 resize-none bg-transparent px-2 py-1.5 text-sm outline-none disabled:cursor-not-allowed disabled:opacity-50"
        />
        {busy && onStop ? (
          <Button type="button" size="icon" variant="outline" aria-label="Stop" onClick={onStop}>
            <SquareIcon className="fill-current" />
          </Button>
        ) : (
          <Button type="submit" size="icon" aria-label="Send" disabled={!canSend}>
            <ArrowUpIcon />
          </Button>
        )}
      </div>
      {length > MAX_QUESTION_LENGTH * 0.9 ? (
        <p
          id="composer-limit"
          className={cn(
            'mx-auto mt-1.5 max-w-3xl text-right text-xs',
            tooLong ? 'text-destructive' : 'text-muted-foreground',
          )}
        >
          {length.toLocaleString('en')} / {MAX_QUESTION_LENGTH.toLocaleString('en')} characters
        </p>
      ) : null}
    </form>
  )
}
