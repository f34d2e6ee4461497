import { useQueryClient } from '@tanstack/react-query'
import { useEffect, useState } from 'react'
import { aiSettingsKeys } from '../api/keys'
import { runEmbedStep } from '../api/run-embed'

/**
 * While `enabled` (an owner is on the page and the model being built lacks vectors, or a
 * promotion's vectors wait to be moved into place), calls the embed function again and
 * again, keeping the settings' counts current, until nothing remains or a call fails.
 * Leaving the page stops it; coming back resumes where it stopped, as the function is
 * idempotent.
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
          // The counts afresh: `remaining` lumps the vectors still to make with those a
          // promotion has made and search reads, which are only waiting to be moved in.
          await queryClient.invalidateQueries({ queryKey: key })
          if (step.remaining > 0 && step.embedded === 0) {
            throw new Error(`${step.remaining} chunks could not be embedded`)
          }
          if (step.remaining === 0) break
        }
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
