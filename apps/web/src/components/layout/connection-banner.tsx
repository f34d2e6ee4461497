import { LoaderCircleIcon } from 'lucide-react'
import { useConnectionDown } from '@/hooks/use-connection'

/**
 * A calm note at the top of every page while the server cannot be reached; gone once it can.
 * A bare live region rather than role="status", so pages keep their own status (a result
 * count, a mail sent) as the one status a person or a test finds.
 */
export function ConnectionBanner() {
  const down = useConnectionDown()
  return (
    <div
      aria-live="polite"
      aria-atomic
      className="pointer-events-none fixed inset-x-0 top-2 z-50 flex justify-center px-4"
    >
      {down ? (
        <p className="bg-foreground text-background pointer-events-auto flex items-center gap-2 rounded-full px-4 py-1.5 text-sm shadow-lg">
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
