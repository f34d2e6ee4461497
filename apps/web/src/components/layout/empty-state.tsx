import type { LucideIcon } from 'lucide-react'
import type * as React from 'react'

type EmptyStateProps = {
  icon: LucideIcon
  title: string
  children: React.ReactNode
  action?: React.ReactNode
}

/** What a person sees where content will be: what it is, and what to do next. */
export function EmptyState({ icon: Icon, title, children, action }: EmptyStateProps) {
  return (
    <section className="mx-auto flex max-w-md flex-col items-center px-4 py-16 text-center">
      <span className="bg-card mb-4 grid size-12 place-items-center rounded-xl border shadow-xs">
        <Icon className="text-muted-foreground size-5" aria-hidden />
      </span>
      <h2 className="text-base font-semibold">{title}</h2>
      <div className="text-muted-foreground mt-2 text-sm text-balance">{children}</div>
      {action ? <div className="mt-6">{action}</div> : null}
    </section>
  )
}
