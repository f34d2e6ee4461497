import { MenuIcon } from 'lucide-react'
import { useState } from 'react'
import type * as React from 'react'
import { useLocation } from 'react-router'
import { Button } from '@/components/ui/button'
import { Sheet, SheetContent, SheetDescription, SheetTitle } from '@/components/ui/sheet'

type AppShellProps = {
  /** Top of the sidebar, e.g. the workspace switcher. */
  header: React.ReactNode
  nav: React.ReactNode
  footer: React.ReactNode
  title: string
  children: React.ReactNode
}

type SidebarBodyProps = Pick<AppShellProps, 'header' | 'nav' | 'footer'> & { inSheet?: boolean }

function SidebarBody({ header, nav, footer, inSheet }: SidebarBodyProps) {
  return (
    <div className="flex h-full flex-col gap-2 p-3">
      {/* In the sheet, leave room for its close button. */}
      <div className={inSheet ? 'pr-8' : undefined}>{header}</div>
      <nav aria-label="Workspace" className="mt-2 grid gap-0.5">
        {nav}
      </nav>
      <div className="mt-auto grid gap-1 border-t pt-3">{footer}</div>
    </div>
  )
}

/** Sidebar on wide screens; a top bar with a sheet on phones. */
export function AppShell({ header, nav, footer, title, children }: AppShellProps) {
  const { pathname } = useLocation()
  // The sheet stays open only on the page it was opened on: navigating from it closes it.
  const [openOn, setOpenOn] = useState<string | null>(null)
  const open = openOn === pathname
  const setOpen = (next: boolean) => setOpenOn(next ? pathname : null)

  return (
    // --page-top is where a page's own sticky bars stick: below the connection bar and, on
    // phones, the top bar (53px: a 36px button, its padding and border), never under them.
    <div className="flex min-h-[calc(100svh-var(--connection-banner))] [--page-top:calc(53px+var(--connection-banner))] md:[--page-top:var(--connection-banner)]">
      <a
        href="#main"
        className="bg-background focus:ring-ring/50 sr-only z-50 rounded-md px-3 py-2 text-sm font-medium shadow focus:not-sr-only focus:fixed focus:top-2 focus:left-2 focus:ring-[3px]"
      >
        Skip to content
      </a>
      <aside className="bg-sidebar text-sidebar-foreground sticky top-(--connection-banner) hidden h-[calc(100svh-var(--connection-banner))] w-64 shrink-0 border-r md:block">
        <SidebarBody header={header} nav={nav} footer={footer} />
      </aside>
      <div className="flex min-w-0 flex-1 flex-col">
        <div className="bg-background/95 sticky top-(--connection-banner) z-30 flex items-center gap-2 border-b px-2 py-2 backdrop-blur md:hidden">
          <Button variant="ghost" size="icon" aria-label="Open menu" onClick={() => setOpen(true)}>
            <MenuIcon />
          </Button>
          <span className="truncate text-sm font-semibold" title={title}>
            {title}
          </span>
        </div>
        <Sheet open={open} onOpenChange={setOpen}>
          <SheetContent className="bg-sidebar p-0">
            <SheetTitle className="sr-only">Menu</SheetTitle>
            <SheetDescription className="sr-only">Workspace navigation</SheetDescription>
            <SidebarBody header={header} nav={nav} footer={footer} inSheet />
          </SheetContent>
        </Sheet>
        <main id="main" tabIndex={-1} className="flex-1 outline-none">
          {children}
        </main>
      </div>
    </div>
  )
}
