import { CircleAlertIcon, RotateCwIcon } from 'lucide-react'
import { useEffect, useState } from 'react'
import { Button } from '@/components/ui/button'
import type { Unsent } from '../hooks/use-chat-stream'

type UnsentQuestionProps = {
  unsent: Unsent
  onRetry: () => void
  /** The server is out of reach: Retry can wait for it instead. */
  offline: boolean
}

/**
 * A question the server never got, kept with the reason and a way to send it again: Retry,
 * or, while the connection is down, "Send when back", which sends as soon as it returns.
 */
export function UnsentQuestion({ unsent, onRetry, offline }: UnsentQuestionProps) {
  const [whenBack, setWhenBack] = useState(false)
  const question = unsent.request.content

  useEffect(() => {
    if (whenBack && !offline) onRetry()
  }, [whenBack, offline, onRetry])

  return (
    <section aria-label="Question not sent" className="mx-auto w-full max-w-3xl px-4 pt-3 sm:px-8">
      <div className="border-destructive/40 bg-card grid gap-2 rounded-xl border p-3 shadow-xs">
        <p className="text-destructive flex items-center gap-1.5 text-xs font-medium">
          <CircleAlertIcon className="size-3.5 shrink-0" aria-hidden />
          {question ? 'Not sent' : 'The answer was not regenerated'}
        </p>
        {question ? <p className="line-clamp-4 text-sm whitespace-pre-wrap">{question}</p> : null}
        <div className="flex flex-wrap items-center justify-between gap-2">
          <p role="alert" className="text-muted-foreground text-xs">
            {whenBack ? 'It will be sent when the connection is back.' : unsent.error}
          </p>
          {offline ? (
            <Button
              size="sm"
              variant="outline"
              aria-pressed={whenBack}
              onClick={() => setWhenBack((on) => !on)}
            >
              {whenBack ? 'Don’t send when back' : 'Send when back'}
            </Button>
          ) : (
            <Button size="sm" variant="outline" onClick={onRetry}>
              <RotateCwIcon />
              Retry
            </Button>
          )}
        </div>
      </div>
    </section>
  )
}
