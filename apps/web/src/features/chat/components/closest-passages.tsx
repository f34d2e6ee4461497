import { ArrowUpRightIcon, FileTextIcon } from 'lucide-react'
import { Link } from 'react-router'
import { usePassageTypes } from '@/hooks/use-passage-types'
import { placeLabel } from '@/lib/format'
import { documentHref } from '@/lib/links'
import type { Citation } from '../api/types'

type ClosestPassagesProps = { passages: Citation[]; workspaceId: string }

/**
 * Under an offline answer that found nothing: the passages that came closest, as cards
 * (title, page, quote, open), so the reader can judge them rather than be told an invented answer.
 */
export function ClosestPassages({ passages, workspaceId }: ClosestPassagesProps) {
  const types = usePassageTypes(passages)
  if (passages.length === 0) return null
  return (
    <section className="mt-3" aria-labelledby="closest-passages">
      <h3 id="closest-passages" className="text-muted-foreground mb-2 text-xs font-medium">
        The closest passages
      </h3>
      <ul className="grid gap-2" aria-label="Closest passages">
        {passages.map((passage) => {
          const pages = placeLabel(
            types.get(passage.document_id),
            passage.page_start,
            passage.page_end,
          )
          const title = passage.title ?? 'Untitled document'
          return (
            <li
              key={passage.chunk_id}
              className="bg-card rounded-lg border p-3 text-sm shadow-xs"
              data-testid="passage-card"
            >
              <p className="flex items-center gap-1.5 font-medium">
                <FileTextIcon className="text-muted-foreground size-3.5 shrink-0" aria-hidden />
                <span className="min-w-0 truncate">{title}</span>
                {pages ? (
                  <span className="text-muted-foreground shrink-0 text-xs font-normal">
                    {pages}
                  </span>
                ) : null}
              </p>
              {passage.quote ? (
                <blockquote className="text-muted-foreground mt-1.5 line-clamp-4 border-l-2 pl-3 text-xs leading-relaxed">
                  {passage.quote}
                </blockquote>
              ) : null}
              <Link
                to={documentHref(workspaceId, passage.document_id, passage.chunk_id)}
                className="text-primary focus-visible:ring-ring/50 mt-2 inline-flex items-center gap-1 rounded text-xs font-medium underline-offset-2 outline-none hover:underline focus-visible:ring-[3px]"
                aria-label={`Open the passage in ${title}${pages ? `, ${pages}` : ''}`}
              >
                Open
                <ArrowUpRightIcon className="size-3.5" aria-hidden />
              </Link>
            </li>
          )
        })}
      </ul>
    </section>
  )
}
