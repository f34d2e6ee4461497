import { ArrowUpIcon, SquareIcon } from 'lucide-react'
import { useEffect, useId, useLayoutEffect, useRef, useState } from 'react'
import { Button } from '@/components/ui/button'
import { cn } from '@/lib/utils'
import { MAX_QUESTION_LENGTH } from '../api/types'
import { activeMention, matchMentions, type MentionOption, withoutMention } from '../utils/mention'
import { MentionList, mentionOptionId } from './mention-list'

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
  /** What an @ can name; picking one takes the @ out of the question and tells `onMention`. */
  mentionOptions?: MentionOption[]
  onMention?: (option: MentionOption) => void
}

/** How long after the last keystroke someone stops "typing" for the others. */
const TYPING_IDLE_MS = 2500

/**
 * The question box: Enter sends, Shift+Enter breaks the line; Stop while answering. An @
 * offers documents and collections to add to the conversation's scope: arrows move, Enter
 * or Tab picks, Escape closes.
 */
export function Composer({
  onSend,
  busy,
  onStop,
  onTyping,
  autoFocus,
  placeholder,
  disabled,
  mentionOptions,
  onMention,
}: ComposerProps) {
  const [text, setText] = useState('')
  const [caret, setCaret] = useState(0)
  const [highlighted, setHighlighted] = useState(0)
  // The @ (by position) that Escape closed, so it stays closed while typing on.
  const [dismissed, setDismissed] = useState<number | null>(null)
  const listId = useId()
  // Where the caret goes once the text without a picked mention is on screen.
  const pendingCaret = useRef<number | null>(null)
  const idle = useRef<ReturnType<typeof setTimeout> | undefined>(undefined)
  const box = useRef<HTMLTextAreaElement>(null)
  const length = text.length
  const tooLong = length > MAX_QUESTION_LENGTH
  const canSend = !busy && !disabled && text.trim() !== '' && !tooLong

  const mention = mentionOptions && onMention ? activeMention(text, caret) : null
  const suggestions =
    mention && mention.start !== dismissed ? matchMentions(mentionOptions!, mention.query) : []
  const open = suggestions.length > 0
  const current = Math.min(highlighted, suggestions.length - 1)

  useEffect(() => () => clearTimeout(idle.current), [])

  useLayoutEffect(() => {
    if (pendingCaret.current === null) return
    box.current?.setSelectionRange(pendingCaret.current, pendingCaret.current)
    pendingCaret.current = null
  }, [text])

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

  function pick(option: MentionOption) {
    if (!mention) return
    const next = withoutMention(text, mention)
    setText(next.text)
    setCaret(next.caret)
    setHighlighted(0)
    onMention?.(option)
    pendingCaret.current = next.caret
  }

  /** Keys for the open list of mentions; true when the key was theirs. */
  function mentionKey(event: React.KeyboardEvent) {
    if (!open) return false
    const move = (by: number) =>
      setHighlighted((current + by + suggestions.length) % suggestions.length)
    if (event.key === 'ArrowDown') move(1)
    else if (event.key === 'ArrowUp') move(-1)
    else if (event.key === 'Enter' || event.key === 'Tab') pick(suggestions[current]!)
    else if (event.key === 'Escape') setDismissed(mention!.start)
    else return false
    event.preventDefault()
    return true
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
          'bg-card focus-within:border-ring focus-within:ring-ring/50 relative mx-auto flex max-w-3xl items-end gap-2 rounded-2xl border p-2 shadow-xs focus-within:ring-[3px]',
          tooLong && 'border-destructive',
        )}
      >
        {open ? (
          <MentionList id={listId} options={suggestions} highlighted={current} onPick={pick} />
        ) : null}
        <textarea
          ref={box}
          rows={1}
          value={text}
          autoFocus={autoFocus}
          disabled={disabled}
          aria-label="Ask a question"
          aria-describedby={tooLong ? 'composer-limit' : undefined}
          aria-invalid={tooLong}
          placeholder={
            placeholder ??
            (mentionOptions && onMention
              ? 'Ask a question… @ adds a document'
              : 'Ask about your documents…')
          }
          aria-autocomplete={mentionOptions && onMention ? 'list' : undefined}
          aria-controls={open ? listId : undefined}
          aria-activedescendant={open ? mentionOptionId(listId, current) : undefined}
          onChange={(event) => {
            typing(event.target.value)
            setCaret(event.target.selectionStart)
            setHighlighted(0)
          }}
          onSelect={(event) => setCaret(event.currentTarget.selectionStart)}
          onKeyDown={(event) => {
            if (mentionKey(event)) return
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
