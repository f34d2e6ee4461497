import { Button } from '@/components/ui/button'
import { Progress } from '@/components/ui/progress'
import { FormError } from '@/components/layout/form-error'
import type { EmbeddingState } from '../utils/embedding-state'

type EmbeddingProgressProps = {
  state: Exclude<EmbeddingState, { kind: 'done' }>
  error: string | null
  onRetry?: () => void
}

const number = new Intl.NumberFormat('en')

/** How far the vectors of the model being built have come, and what serves search meanwhile. */
export function EmbeddingProgress({ state, error, onRetry }: EmbeddingProgressProps) {
  const { label, text, share } = describe(state)
  return (
    <div className="grid gap-2" aria-live="polite">
      <p className="text-sm">{text}</p>
      <Progress value={share} aria-label={label} />
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

function describe(state: EmbeddingProgressProps['state']) {
  const chunks = number.format(state.chunks)
  const share = (done: number) => (state.chunks === 0 ? 1 : done / state.chunks)
  switch (state.kind) {
    case 'embedding':
      return {
        label: 'Embedding progress',
        text: `Embedding ${number.format(state.done)} of ${chunks} chunks — search is lexical for the rest until done.`,
        share: share(state.done),
      }
    case 'moving':
      return {
        label: 'Moving vectors into place',
        text: `All ${chunks} chunks are embedded and searched by meaning; ${number.format(state.moving)} vectors of the new model are still being moved into place.`,
        share: share(state.chunks - state.moving),
      }
    case 'rebuilding': {
      const serving =
        state.searchable >= state.chunks
          ? 'the current model serves search until done.'
          : `until done, the current model serves search for ${number.format(state.searchable)} of them, and search is lexical for the rest.`
      return {
        label: 'Re-embedding progress',
        text: `Re-embedding ${number.format(state.done)} of ${chunks} chunks with the new model — ${serving}`,
        share: share(state.done),
      }
    }
  }
}
