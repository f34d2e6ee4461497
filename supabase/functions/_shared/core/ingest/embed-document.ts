// Generated from packages/core/src/ingest/embed-document.ts by `npm run sync:core`: edit that file, not this one.
import type { SupabaseClient } from '@supabase/supabase-js'
import type { ProgressReporter } from './progress.ts'

interface EmbedReply {
  embedded: number
  remaining: number
}

/**
 * The embedding stage: when the workspace has an embedding model (active or being built),
 * calls the `embed` Edge Function for the document until no chunk is left, reporting
 * progress. Returns why it failed, or undefined: a failure does not fail the document, whose
 * keyword search works without vectors (the embed function is idempotent, so it can be run
 * again later). Only cancellation throws.
 */
export async function embedDocument(
  supabase: SupabaseClient,
  workspaceId: string,
  documentId: string,
  progress: ProgressReporter,
  signal?: AbortSignal,
): Promise<string | undefined> {
  const workspace = await supabase
    .from('workspaces')
    .select('embedding_model, pending_embedding_model')
    .eq('id', workspaceId)
    .maybeSingle<{ embedding_model: string | null; pending_embedding_model: string | null }>()
  if (workspace.error) return embedFailure(workspace.error.message)
  if (!workspace.data?.embedding_model && !workspace.data?.pending_embedding_model) return
  await progress.report('embedding')
  let embedded = 0
  for (;;) {
    signal?.throwIfAborted()
    const { data, error } = await supabase.functions.invoke<EmbedReply>('embed', {
      body: { document_id: documentId },
      ...(signal ? { signal } : {}),
    })
    signal?.throwIfAborted()
    if (error) return embedFailure(await functionError(error))
    if (!isEmbedReply(data)) return embedFailure('the embed function gave an unexpected answer')
    if (data.remaining <= 0) return
    // Idempotent, so a call that embeds nothing would do the same next time.
    if (data.embedded <= 0) return embedFailure(`${data.remaining} chunks could not be embedded`)
    embedded += data.embedded
    await progress.report('embedding', embedded / (embedded + data.remaining))
  }
}

function embedFailure(reason: string): string {
  return `Embeddings could not be made (${reason}); keyword search works.`
}

function isEmbedReply(data: unknown): data is EmbedReply {
  const reply = data as EmbedReply | null
  return typeof reply?.embedded === 'number' && typeof reply.remaining === 'number'
}

/** The message of a function's JSON error (`{ error: { message } }` or `{ message }`). */
async function functionError(error: Error & { context?: unknown }): Promise<string> {
  if (!(error.context instanceof Response)) return error.message
  const body = (await error.context.json().catch(() => null)) as {
    message?: unknown
    error?: { message?: unknown }
  } | null
  const message = body?.error?.message ?? body?.message
  return typeof message === 'string' ? message : `HTTP ${error.context.status}`
}
