import { useId, useState } from 'react'
import { Input } from '@/components/ui/input'
import { parsePageNumber } from '../../utils/page-at-line'

type PageInputProps = { page: number; count: number; onGoTo: (page: number) => void }

/** "Page n of N": shows the page being read; type a number and Enter to go there. */
export function PageInput({ page, count, onGoTo }: PageInputProps) {
  const [draft, setDraft] = useState<string | null>(null)
  const [refused, setRefused] = useState(false)
  const hint = useId()
  const reset = () => {
    setDraft(null)
    setRefused(false)
  }
  return (
    <div className="relative flex items-center gap-1.5 text-sm">
      <label htmlFor={`${hint}-input`} className="text-muted-foreground hidden sm:inline">
        Page
      </label>
      <Input
        id={`${hint}-input`}
        aria-label={`Page number, 1 to ${count}`}
        aria-invalid={refused || undefined}
        aria-describedby={refused ? hint : undefined}
        inputMode="numeric"
        enterKeyHint="go"
        className="h-8 w-14 px-2 text-center tabular-nums"
        value={draft ?? String(page)}
        onFocus={(event) => event.currentTarget.select()}
        onChange={(event) => {
          setDraft(event.target.value)
          setRefused(false)
        }}
        onBlur={reset}
        onKeyDown={(event) => {
          if (event.key === 'Escape' && draft !== null) {
            event.stopPropagation()
            reset()
          }
          if (event.key !== 'Enter' || draft === null) return
          const target = parsePageNumber(draft, count)
          if (target === null) return setRefused(true)
          reset()
          onGoTo(target)
        }}
      />
      <span className="text-muted-foreground whitespace-nowrap tabular-nums">of {count}</span>
      {refused ? (
        <p
          id={hint}
          role="status"
          className="bg-popover text-popover-foreground absolute top-full left-0 z-20 mt-1 rounded-md border px-2 py-1 text-xs whitespace-nowrap shadow-sm"
        >
          Enter a page from 1 to {count}
        </p>
      ) : null}
    </div>
  )
}
