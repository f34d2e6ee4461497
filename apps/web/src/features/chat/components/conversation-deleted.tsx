import { Trash2Icon } from 'lucide-react'
import { useEffect, useRef } from 'react'
import { Link } from 'react-router'
import { Button } from '@/components/ui/button'

type ConversationDeletedProps = {
  /** Who deleted it: only its creator may (RLS), so this is the creator's name. */
  by: string | null
  backTo: string
}

/** Said where the composer's question would go, once someone deleted the open conversation. */
export function ConversationDeleted({ by, backTo }: ConversationDeletedProps) {
  const back = useRef<HTMLAnchorElement>(null)
  // The composer this person may have been typing in is gone: the way out takes the focus.
  useEffect(() => back.current?.focus(), [])
  return (
    <section
      aria-label="Conversation deleted"
      className="mx-auto w-full max-w-3xl px-4 pt-3 sm:px-8"
    >
      <div className="bg-muted/50 flex flex-wrap items-center justify-between gap-3 rounded-xl border p-3">
        <p role="alert" className="flex items-center gap-2 text-sm">
          <Trash2Icon className="text-muted-foreground size-4 shrink-0" aria-hidden />
          {by ? `This conversation was deleted by ${by}.` : 'This conversation was deleted.'}
        </p>
        <Button asChild size="sm" variant="outline">
          <Link ref={back} to={backTo}>
            Back to conversations
          </Link>
        </Button>
      </div>
    </section>
  )
}
