import { XIcon } from 'lucide-react'
import { useEffect, useId, useRef } from 'react'
import type * as React from 'react'
import { Button } from '@/components/ui/button'
import { Sheet, SheetContent, SheetDescription, SheetTitle } from '@/components/ui/sheet'
import { useMediaQuery } from '@/hooks/use-media-query'

type SidePanelProps = {
  title: string
  description: string
  /** Closes the panel: Escape, the close button, or (phones) a tap outside. */
  onClose: () => void
  /** What the panel shows changed (a new item opened in it): focus moves into it again. */
  focusKey: string
  /** Stays in view below the scrolling content, e.g. the panel's main action. */
  footer?: React.ReactNode
  children: React.ReactNode
}

/**
 * Something to read beside the page: a panel at the right of wide screens, which leaves the
 * page usable, and a sheet from the bottom on phones. Either takes focus when it opens and
 * gives it back to what opened it when it closes.
 */
export function SidePanel(props: SidePanelProps) {
  // Beside the page only where both fit: a tablet's width reads better with a sheet.
  const wide = useMediaQuery('(min-width: 1024px)')
  return wide ? <Aside {...props} /> : <BottomSheet {...props} />
}

function Aside({ title, description, onClose, focusKey, footer, children }: SidePanelProps) {
  const panel = useRef<HTMLElement>(null)
  const opener = useRef<HTMLElement | null>(null)
  const titleId = useId()
  useEffect(() => {
    const focused = document.activeElement
    if (focused instanceof HTMLElement && !panel.current?.contains(focused))
      opener.current = focused
    panel.current?.focus()
  }, [focusKey])
  useEffect(
    () => () => {
      // The opener may have gone (a virtualized list scrolled it away): then focus stays put.
      if (opener.current?.isConnected) opener.current.focus()
    },
    [],
  )
  return (
    <section
      ref={panel}
      tabIndex={-1}
      aria-labelledby={titleId}
      onKeyDown={(event) => {
        if (event.key !== 'Escape') return
        event.stopPropagation()
        onClose()
      }}
      className="bg-background flex h-full w-96 shrink-0 flex-col border-l outline-none"
    >
      <header className="flex items-start gap-2 border-b py-3 pr-2 pl-4">
        <div className="min-w-0 flex-1">
          <h2 id={titleId} className="leading-snug font-semibold break-words">
            {title}
          </h2>
          <p className="text-muted-foreground mt-0.5 text-xs">{description}</p>
        </div>
        <Button variant="ghost" size="icon" aria-label="Close" onClick={onClose}>
          <XIcon />
        </Button>
      </header>
      <div className="min-h-0 flex-1 overflow-y-auto p-4">{children}</div>
      {footer ? <div className="border-t p-3">{footer}</div> : null}
    </section>
  )
}

function BottomSheet({ title, description, onClose, footer, children }: SidePanelProps) {
  return (
    <Sheet open onOpenChange={(open) => (open ? undefined : onClose())}>
      <SheetContent
        side="bottom"
        className="p-0 outline-none"
        // Focus the sheet itself, as the wide panel does, rather than its first link.
        onOpenAutoFocus={(event) => {
          event.preventDefault()
          ;(event.currentTarget as HTMLElement).focus()
        }}
      >
        <div className="border-b py-3 pr-12 pl-4">
          <SheetTitle className="leading-snug font-semibold break-words">{title}</SheetTitle>
          <SheetDescription className="text-muted-foreground mt-0.5 text-xs">
            {description}
          </SheetDescription>
        </div>
        <div className="min-h-0 flex-1 overflow-y-auto p-4">{children}</div>
        {footer ? (
          <div className="border-t p-3 pb-[max(0.75rem,env(safe-area-inset-bottom))]">{footer}</div>
        ) : null}
      </SheetContent>
    </Sheet>
  )
}
