import { FileTextIcon } from 'lucide-react'
import { Link } from 'react-router'
import { placeLabel } from '@/lib/format'
import { isPlainClick } from '@/lib/plain-click'
import { cn } from '@/lib/utils'
import type { SearchResult } from '../api/search-chunks'
import { Snippet } from './snippet'

type ResultCardProps = {
  result: SearchResult
  href: string
  id: string
  active: boolean
  /** Opens the result (recording it in the search's URL first); plain clicks come here. */
  onOpen: () => void
}

/**
 * One passage: its document, pages and highlighted snippet, linking to it in the viewer. The
 * link is the listbox's option itself (an option may not hold a link); focus stays in the
 * search box, which chooses among the options.
 */
export function ResultCard({ result, href, id, active, onOpen }: ResultCardProps) {
  const pages = placeLabel(result.document_type, result.page_start, result.page_end)
  return (
    <li role="none">
      <Link
        to={href}
        id={id}
        role="option"
        aria-selected={active}
        tabIndex={-1}
        onClick={(event) => {
          if (!isPlainClick(event)) return
          event.preventDefault()
          onOpen()
        }}
        className={cn(
          'bg-card hover:border-ring/60 block rounded-lg border p-4 shadow-xs transition-colors',
          active && 'border-ring ring-ring/30 ring-[3px]',
        )}
      >
        <div className="mb-1.5 flex items-center gap-2 text-sm font-medium">
          <FileTextIcon className="text-muted-foreground size-4 shrink-0" aria-hidden />
          <span className="truncate">{result.title}</span>
          {pages ? (
            <span className="text-muted-foreground ml-auto shrink-0 text-xs">{pages}</span>
          ) : null}
        </div>
        <Snippet snippet={result.snippet} />
      </Link>
    </li>
  )
}
