import { cn } from '@/lib/utils'
import type { OutlineEntry } from '../../hooks/use-pdf-outline'

type PdfOutlineProps = {
  entries: OutlineEntry[]
  onJump: (page: number) => void
  className?: string
}

function Entries({ entries, onJump, depth }: PdfOutlineProps & { depth: number }) {
  return (
    <ul className={cn('grid gap-0.5', depth > 0 && 'border-l pl-2')}>
      {entries.map((entry, index) => (
        <li key={`${index}-${entry.title}`}>
          {entry.page === null ? (
            <span className="text-muted-foreground block px-2 py-1 text-sm">{entry.title}</span>
          ) : (
            <button
              type="button"
              className="hover:bg-accent focus-visible:ring-ring/50 flex w-full items-baseline gap-2 rounded-md px-2 py-1 text-left text-sm outline-none focus-visible:ring-[3px]"
              onClick={() => onJump(entry.page!)}
            >
              <span className="min-w-0 flex-1">{entry.title}</span>
              <span className="text-muted-foreground text-xs tabular-nums">{entry.page}</span>
            </button>
          )}
          {entry.items.length ? (
            <Entries entries={entry.items} onJump={onJump} depth={depth + 1} />
          ) : null}
        </li>
      ))}
    </ul>
  )
}

/** The PDF's bookmarks; choosing one goes to its page. */
export function PdfOutline({ entries, onJump, className }: PdfOutlineProps) {
  return (
    <nav aria-label="Outline" className={className}>
      <Entries entries={entries} onJump={onJump} depth={0} />
    </nav>
  )
}
