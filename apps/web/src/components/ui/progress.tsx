import * as React from 'react'
import { cn } from '@/lib/utils'

/** A thin determinate progress bar; `value` is 0..1. */
function Progress({ value, className, ...props }: React.ComponentProps<'div'> & { value: number }) {
  const percent = Math.round(Math.min(1, Math.max(0, value)) * 100)
  return (
    <div
      data-slot="progress"
      role="progressbar"
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={percent}
      className={cn('bg-primary/15 relative h-1.5 w-full overflow-hidden rounded-full', className)}
      {...props}
    >
      <div
        className="bg-primary h-full rounded-full transition-[width] duration-300"
        style={{ width: `${percent}%` }}
      />
    </div>
  )
}

export { Progress }
