import { Skeleton } from '@/components/ui/skeleton'

/** Placeholders the shape of result cards, while the first search runs. */
export function ResultSkeletons() {
  return (
    <div className="grid gap-3" aria-label="Searching" role="status">
      {[0, 1, 2].map((i) => (
        <div key={i} className="rounded-lg border p-4">
          <Skeleton className="mb-3 h-4 w-1/3" />
          <Skeleton className="mb-2 h-3 w-full" />
          <Skeleton className="h-3 w-4/5" />
        </div>
      ))}
    </div>
  )
}
