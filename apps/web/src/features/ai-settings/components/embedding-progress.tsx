import { Button } from '@/components/ui/button'
import { Progress } from '@/components/ui/progress'
import { FormError } from '@/components/layout/form-error'

type EmbeddingProgressProps = {
  /** Whether a new model is being built beside an active one. */
  rebuilding: boolean
  chunks: number
  missing: number
  error: string | null
  onRetry?: () => void
}

const number = new Intl.NumberFormat('en')

/** How far the vectors of the model being built have come, and what serves meanwhile. */
export function EmbeddingProgress({
  rebuilding,
  chunks,
  missing,
  error,
  onRetry,
}: EmbeddingProgressProps) {
  const done = chunks - missing
  const verb = rebuilding ? 'Re-embedding' : 'Embedding'
  return (
    <div className="grid gap-2" aria-live="polite">
      <p className="text-sm">
        {verb} {number.format(done)} of {number.format(chunks)} chunks
        {rebuilding
          ? ' — the old model serves search until done.'
          : ' — search is lexical for the rest until done.'}
      </p>
      <Progress value={chunks === 0 ? 1 : done / chunks} aria-label={`${verb} progress`} />
      {error && (
        <div className="grid gap-2">
          <FormError message={error} />
          {onRetry && (
            <Button variant="outline" size="sm" className="w-fit" onClick={onRetry}>
              Try again
            </Button>
          )}
        </div>
      )}
    </div>
  )
}
