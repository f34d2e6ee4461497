import { FunctionsHttpError } from '@supabase/supabase-js'
import { supabase } from '@/lib/supabase'

export type EmbedStep = { embedded: number; remaining: number }

/**
 * One call of the embed function for the whole workspace: a few seconds of batches. The
 * caller repeats it until nothing remains; the last one swaps a new model in.
 */
export async function runEmbedStep(workspaceId: string, signal: AbortSignal): Promise<EmbedStep> {
  const { data, error } = await supabase.functions.invoke<EmbedStep>('embed', {
    body: { workspace_id: workspaceId },
    signal,
  })
  if (error) throw new Error(await functionErrorMessage(error))
  return data!
}

/** The function's own `{ message }` (a provider problem, say), rather than "non-2xx". */
async function functionErrorMessage(error: Error): Promise<string> {
  if (!(error instanceof FunctionsHttpError)) return error.message
  const body = (await (error.context as Response).json().catch(() => null)) as {
    message?: unknown
  } | null
  return typeof body?.message === 'string' ? body.message : error.message
}
