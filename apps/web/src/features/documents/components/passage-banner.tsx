import { QuoteIcon, XIcon } from 'lucide-react'
import { Button } from '@/components/ui/button'
import { pageRange } from '@/lib/format'
import type { Passage } from '../api/get-chunk'

type PassageBannerProps = {
  passage: Passage | null
  pending: boolean
  /** PDFs show the passage's text here too: the page's highlight is matched, not exact. */
  showText: boolean
  /** What the passage's page numbers count (default pages); null says no place. */
  where?: 'page' | 'slide' | null
  onClear: () => void
}

/** Says which passage is highlighted and where, and lets the reader clear it. */
export function PassageBanner({
  passage,
  pending,
  showText,
  where = 'page',
  onClear,
}: PassageBannerProps) {
  const pages =
    !passage || where === null
      ? null
      : where === 'slide'
        ? pageRange(passage.page_start, passage.page_end)?.replace(/^page/, 'slide')
        : pageRange(passage.page_start, passage.page_end)
  return (
    // Stays in view on wide screens while reading, so the highlight can always be cleared (the
    // document page keeps it stuck on phones too, under the app's top bar).
    <section aria-label="Passage" className="bg-background border-b md:sticky md:top-0 md:z-20">
      <div className="bg-amber-50/60 px-4 py-3 sm:px-8 dark:bg-amber-400/5">
        <div className="flex items-center gap-3">
          <QuoteIcon className="size-4 shrink-0 text-amber-600 dark:text-amber-400" aria-hidden />
          <p className="min-w-0 flex-1 text-sm">
            {pending
              ? 'Finding the passage…'
              : passage
                ? `Highlighted passage${pages ? ` on ${pages}` : ''}`
                : 'That passage is no longer in this document.'}
          </p>
          <Button variant="ghost" size="sm" onClick={onClear}>
            <XIcon /> Clear highlight
          </Button>
        </div>
        {showText && passage ? (
          <blockquote className="text-muted-foreground mt-2 line-clamp-2 border-l-2 border-amber-400 pl-3 text-sm sm:line-clamp-3">
            {passage.content}
          </blockquote>
        ) : null}
      </div>
    </section>
  )
}
