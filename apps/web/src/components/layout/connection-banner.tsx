import { LoaderCircleIcon } from 'lucide-react'
import { useConnectionDown } from '@/hooks/use-connection'

/**
 * A calm bar at the top of every page while the server cannot be reached; gone once it can.
 * Its height is --connection-banner (index.css), which the page starts below and the app's
 * full-height layouts subtract: floating over the page, it covered the phone's header.
 * A bare live region rather than role="status", so pages keep their own status (a result
 * count, a mail sent) as the one status a person or a test finds.
 */
export function ConnectionBanner() {
  const down = useConnectionDown()
  return (
    <div aria-live="polite" aria-atomic>
      {down ? (
        <p
          data-connection-banner
          className="bg-foreground text-background fixed inset-x-0 top-0 z-50 flex h-(--connection-banner) items-center justify-center gap-2 px-4 text-sm"
        >
          <LoaderCircleIcon
            className="size-4 animate-spin motion-reduce:animate-none"
            aria-hidden
          />
          Reconnecting…
        </p>
      ) : null}
    </div>
  )
}
