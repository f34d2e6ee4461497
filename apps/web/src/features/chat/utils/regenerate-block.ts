import type { LibraryState } from '../api/get-library-state'
import type { Message } from '../api/types'

export const SAME_ANSWER =
  'Offline answers are extracted the same way every time: with the same question and the same documents, regenerating would give this answer again. Add or change documents, or choose an AI model, to get a different one.'

/**
 * Why regenerating this answer is pointless, or null when it is not: an offline answer is
 * deterministic, so with no chat model and no document changed since, it would come out the
 * same. (A deleted document is not seen here; regenerating then is merely allowed to repeat.)
 */
export function regenerateBlock(answer: Message, library: LibraryState | undefined): string | null {
  if (!library || !answer.extractive || answer.status !== 'complete') return null
  if (library.chatModel !== null) return null
  const changed =
    library.changedAt !== null && Date.parse(library.changedAt) > Date.parse(answer.created_at)
  return changed ? null : SAME_ANSWER
}
