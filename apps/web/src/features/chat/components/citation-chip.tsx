import { TriangleAlertIcon } from 'lucide-react'
import { plainLinks } from '@sourcebook/core/chat/plain-links'
import { Tooltip } from 'radix-ui'
import { Link } from 'react-router'
import { usePassageTypes } from '@/hooks/use-passage-types'
import { placeLabel } from '@/lib/format'
import { documentHref } from '@/lib/links'
import { isPlainClick } from '@/lib/plain-click'
import { cn } from '@/lib/utils'
import type { Citation } from '../api/types'
import { useCitationOpener } from '../hooks/use-open-citation'
import { citationLabel } from '../utils/citations'

type CitationChipProps = {
  n: number
  citation: Citation | undefined
  workspaceId: string
  messageId: string
}

/**
 * An inline `[n]`: opens the cited passage beside the conversation (its link, for a new tab,
 * is the document at the passage), with a preview (title, pages, quote) on hover or focus. A
 * citation the check found unsupported is marked, in the chip and the preview.
 */
export function CitationChip({ n, citation, workspaceId, messageId }: CitationChipProps) {
  const openCitation = useCitationOpener()
  const types = usePassageTypes(citation ? [citation] : [])
  if (!citation) {
    // The answer cites a source it was not given: say so rather than link nowhere.
    return (
      <span
        className="text-muted-foreground mx-0.5 rounded border border-dashed px-1 text-xs"
        title="No such source"
      >
        [{n}]
      </span>
    )
  }
  const unsupported = citation.supported === false
  const type = types.get(citation.document_id)
  const pages = placeLabel(type, citation.page_start, citation.page_end)
  return (
    <Tooltip.Root>
      <Tooltip.Trigger asChild>
        <Link
          to={documentHref(workspaceId, citation.document_id, citation.chunk_id)}
          aria-label={citationLabel(citation, type)}
          data-testid="citation-chip"
          onClick={(event) => {
            if (!openCitation || !isPlainClick(event)) return
            event.preventDefault()
            openCitation(messageId, n)
          }}
          className={cn(
            'mx-0.5 inline-flex h-5 min-w-5 translate-y-[-1px] items-center justify-center gap-0.5 rounded-md border px-1 align-middle text-[0.7rem] leading-none font-semibold no-underline transition-colors',
            'focus-visible:ring-ring/50 outline-none focus-visible:ring-[3px]',
            unsupported
              ? 'border-dashed border-amber-500/70 bg-amber-500/10 text-amber-800 hover:bg-amber-500/20 dark:text-amber-300'
              : 'bg-secondary text-secondary-foreground hover:bg-accent border-transparent',
          )}
        >
          {unsupported ? <TriangleAlertIcon className="size-3" aria-hidden /> : null}
          {n}
        </Link>
      </Tooltip.Trigger>
      <Tooltip.Portal>
        <Tooltip.Content
          side="top"
          sideOffset={6}
          collisionPadding={12}
          className="bg-popover text-popover-foreground z-50 max-w-80 rounded-lg border p-3 text-sm shadow-md"
        >
          <p className="font-medium">
            {citation.title ?? 'Untitled document'}
            {pages ? <span className="text-muted-foreground font-normal"> · {pages}</span> : null}
          </p>
          {citation.quote ? (
            <p className="text-muted-foreground mt-1.5 line-clamp-5 text-xs leading-relaxed">
              “{plainLinks(citation.quote)}”
            </p>
          ) : null}
          {unsupported ? (
            <p className="mt-2 flex items-center gap-1.5 text-xs font-medium text-amber-700 dark:text-amber-300">
              <TriangleAlertIcon className="size-3.5" aria-hidden />
              Not supported by the cited passage
            </p>
          ) : null}
        </Tooltip.Content>
      </Tooltip.Portal>
    </Tooltip.Root>
  )
}
