import { ChevronRightIcon, FileTextIcon, TriangleAlertIcon } from 'lucide-react'
import { plainLinks } from '@sourcebook/core/chat/plain-links'
import { Link } from 'react-router'
import { usePassageTypes } from '@/hooks/use-passage-types'
import { placeLabel } from '@/lib/format'
import { documentHref } from '@/lib/links'
import { isPlainClick } from '@/lib/plain-click'
import type { Citation } from '../api/types'
import { useCitationOpener } from '../hooks/use-open-citation'

type SourcesPanelProps = { citations: Citation[]; workspaceId: string; messageId: string }

/** The passages an answer cites, each opening beside the conversation (or, in a new tab, the
 * document at that passage). */
export function SourcesPanel({ citations, workspaceId, messageId }: SourcesPanelProps) {
  const openCitation = useCitationOpener()
  const types = usePassageTypes(citations)
  if (citations.length === 0) return null
  return (
    <details className="group mt-3 rounded-lg border">
      <summary className="text-muted-foreground hover:text-foreground focus-visible:ring-ring/50 flex cursor-pointer list-none items-center gap-1.5 rounded-lg px-3 py-2 text-xs font-medium outline-none select-none focus-visible:ring-[3px]">
        <ChevronRightIcon
          className="size-3.5 transition-transform group-open:rotate-90"
          aria-hidden
        />
        Sources ({citations.length})
      </summary>
      <ol className="grid gap-1 border-t p-2" aria-label="Sources">
        {citations.map((citation) => {
          const pages = placeLabel(
            types.get(citation.document_id),
            citation.page_start,
            citation.page_end,
          )
          return (
            <li key={`${citation.n}-${citation.chunk_id}`}>
              <Link
                to={documentHref(workspaceId, citation.document_id, citation.chunk_id)}
                onClick={(event) => {
                  if (!openCitation || !isPlainClick(event)) return
                  event.preventDefault()
                  openCitation(messageId, citation.n)
                }}
                className="hover:bg-accent flex gap-2 rounded-md p-2 text-sm"
              >
                <span className="bg-secondary grid size-5 shrink-0 place-items-center rounded text-[0.7rem] font-semibold">
                  {citation.n}
                </span>
                <span className="min-w-0 flex-1">
                  <span className="flex items-center gap-1.5 font-medium">
                    <FileTextIcon className="text-muted-foreground size-3.5 shrink-0" aria-hidden />
                    <span className="truncate">{citation.title ?? 'Untitled document'}</span>
                    {pages ? (
                      <span className="text-muted-foreground shrink-0 text-xs font-normal">
                        {pages}
                      </span>
                    ) : null}
                  </span>
                  {citation.quote ? (
                    <span className="text-muted-foreground mt-0.5 line-clamp-2 text-xs">
                      {plainLinks(citation.quote)}
                    </span>
                  ) : null}
                  {citation.supported === false ? (
                    <span className="mt-1 flex items-center gap-1 text-xs text-amber-700 dark:text-amber-300">
                      <TriangleAlertIcon className="size-3" aria-hidden />
                      Not supported by the cited passage
                    </span>
                  ) : null}
                </span>
              </Link>
            </li>
          )
        })}
      </ol>
    </details>
  )
}
