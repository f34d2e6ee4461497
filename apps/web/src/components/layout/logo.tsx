import { cn } from '@/lib/utils'

export function Logo({ className }: { className?: string }) {
  return (
    <span className={cn('flex items-center gap-2 font-semibold tracking-tight', className)}>
      <span
        aria-hidden
        className="bg-primary text-primary-foreground grid size-7 place-items-center rounded-md"
      >
        <svg
          viewBox="0 0 24 24"
          className="size-4"
          fill="none"
          stroke="currentColor"
          strokeWidth="2"
        >
          <path d="M6 4h9a3 3 0 0 1 3 3v13H9a3 3 0 0 1-3-3z" />
          <path d="M10 9h4M10 13h4" strokeLinecap="round" />
        </svg>
      </span>
      Sourcebook
    </span>
  )
}
