import { Skeleton } from '@/components/ui/skeleton'

/** Rows of placeholders while the list loads. */
export function LibrarySkeleton() {
  return (
    <div aria-busy="true" aria-label="Loading documents" className="border-t">
      {Array.from({ length: 6 }, (_, i) => (
        <div key={i} className="flex items-center gap-4 border-b px-4 py-4 sm:px-8">
          <Skeleton className="h-4 flex-1" />
          <Skeleton className="hidden h-4 w-16 md:block" />
          <Skeleton className="hidden h-4 w-24 md:block" />
          <Skeleton className="h-4 w-28" />
        </div>
      ))}
    </div>
  )
}
