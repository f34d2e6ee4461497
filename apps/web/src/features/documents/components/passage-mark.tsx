import type * as React from 'react'

/** How a cited passage looks wherever it is marked: legible in light and dark. */
export const passageMarkClass =
  'rounded-sm bg-amber-200/80 text-foreground dark:bg-amber-400/30 scroll-mt-24'

export function PassageMark({ children }: { children: React.ReactNode }) {
  return (
    <mark data-passage="start" className={passageMarkClass}>
      {children}
    </mark>
  )
}
