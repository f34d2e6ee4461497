import { ChevronDownIcon, ChevronUpIcon, XIcon } from 'lucide-react'
import type { RefObject } from 'react'
import { Button } from '@/components/ui/button'
import { Input } from '@/components/ui/input'

type PdfFindBarProps = {
  inputRef: RefObject<HTMLInputElement | null>
  query: string
  onQueryChange: (query: string) => void
  /** Index of the current match, -1 for none. */
  current: number
  count: number
  searching: boolean
  onStep: (direction: 1 | -1) => void
  onClose: () => void
}

function status({ query, current, count, searching }: PdfFindBarProps) {
  if (!query.trim()) return ''
  if (searching) return 'Searching…'
  if (count === 0) return 'No matches'
  return `${current + 1} of ${count}`
}

/** Find in the document: Enter and Shift+Enter step through matches, Escape closes. */
export function PdfFindBar(props: PdfFindBarProps) {
  const { inputRef, query, onQueryChange, count, onStep, onClose } = props
  return (
    <div role="search" className="flex items-center gap-1 border-t pt-2">
      <Input
        ref={inputRef}
        type="search"
        aria-label="Find in document"
        placeholder="Find in document"
        className="h-8 min-w-0 flex-1"
        value={query}
        onChange={(event) => onQueryChange(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === 'Enter') {
            event.preventDefault()
            if (count) onStep(event.shiftKey ? -1 : 1)
          } else if (event.key === 'Escape') {
            event.preventDefault()
            onClose()
          }
        }}
      />
      <span
        role="status"
        className="text-muted-foreground min-w-20 px-1 text-center text-sm whitespace-nowrap tabular-nums"
      >
        {status(props)}
      </span>
      <Button
        variant="ghost"
        size="icon-sm"
        aria-label="Previous match"
        disabled={!count}
        onClick={() => onStep(-1)}
      >
        <ChevronUpIcon />
      </Button>
      <Button
        variant="ghost"
        size="icon-sm"
        aria-label="Next match"
        disabled={!count}
        onClick={() => onStep(1)}
      >
        <ChevronDownIcon />
      </Button>
      <Button variant="ghost" size="icon-sm" aria-label="Close find" onClick={onClose}>
        <XIcon />
      </Button>
    </div>
  )
}
