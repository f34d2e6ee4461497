import { useQueryClient } from '@tanstack/react-query'
import { useEffect, useState } from 'react'
import type { AiSettings } from '../api/get-ai-settings'
import { aiSettingsKeys } from '../api/keys'
import { runEmbedStep } from '../api/run-embed'

/**
 * While `enabled` (an owner is on the page and chunks lack vectors for the model being
 * built), calls the embed function again and again, keeping the settings' `missing` count
 * current, until none remain or a call fails. Leaving the page stops it; coming back resumes
 * where it stopped, as the function is idempotent.
 */
export function useEmbeddingBuild(workspaceId: string, enabled: boolean) {
  const queryClient = useQueryClient()
  const [error, setError] = useState<string | null>(null)
  const [attempt, setAttempt] = useState(0)
  const running = enabled && error === null

  useEffect(() => {
    if (!running) return
    const controller = new AbortController()
    const key = aiSettingsKeys.workspace(workspaceId)
    void (async () => {
      try {
        for (;;) {
          const step = await runEmbedStep(workspaceId, controller.signal)
          if (controller.signal.aborted) return
          queryClient.setQueryData<AiSettings>(key, (old) =>
            old ? { ...old, missing: step.remaining } : old,
          )
          if (step.remaining > 0 && step.embedded === 0) {
            throw new Error(`${step.remaining} chunks could not be embedded`)
          }
          // Done: a pending model has just been swapped in, so read the settings afresh.
          if (step.remaining === 0) break
        }
        await queryClient.invalidateQueries({ queryKey: key })
      } catch (cause) {
        if (!controller.signal.aborted) setError((cause as Error).message)
      }
    })()
    return () => controller.abort()
  }, [running, workspaceId, queryClient, attempt])

  return {
    running,
    error,
    retry: () => {
      setError(null)
      setAttempt((n) => n + 1)
    },
  }
}
