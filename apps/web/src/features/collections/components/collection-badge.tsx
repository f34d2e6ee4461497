import { XIcon } from 'lucide-react'
import { cn } from '@/lib/utils'
import { type CollectionColor, colorDot } from '../utils/colors'

type CollectionBadgeProps = {
  name: string
  color: CollectionColor
  /** Shown with a button that takes it away, labelled with `removeLabel`. */
  onRemove?: () => void
  removeLabel?: string
  className?: string
}

/** A collection's name with its colour dot; the name carries the meaning, not the colour. */
export function CollectionBadge({
  name,
  color,
  onRemove,
  removeLabel,
  className,
}: CollectionBadgeProps) {
  return (
    <span
      className={cn(
        'bg-background text-foreground inline-flex h-6 max-w-48 shrink-0 items-center gap-1.5 rounded-full border px-2 text-xs font-medium',
        className,
      )}
    >
      <span aria-hidden className={cn('size-2 shrink-0 rounded-full', colorDot[color])} />
      <span className="truncate">{name}</span>
      {onRemove ? (
        <button
          type="button"
          onClick={onRemove}
          aria-label={removeLabel ?? `Remove ${name}`}
          className="text-muted-foreground hover:text-foreground focus-visible:ring-ring/50 -mr-1 rounded-full p-0.5 outline-none focus-visible:ring-2"
        >
          <XIcon className="size-3" aria-hidden />
        </button>
      ) : null}
    </span>
  )
}
