// Embeds the chunks still lacking a vector for a model, batch by batch, within a time budget,
// and writes them with the service role where that model's vectors live.
import type { SupabaseClient } from 'npm:@supabase/supabase-js@2.119.1'
import { embedMany, type EmbeddingModel } from '../_shared/ai/deps.ts'
import { providerErrorMessage } from '../_shared/ai/errors.ts'
import { embeddingModel, maxRetries } from '../_shared/ai/providers.ts'

export type Scope = {
  workspaceId: string
  documentId: string | null
  model: string
  /** Whether the model is the workspace's pending one (vectors go to staging). */
  staging: boolean
}

/** Chunks per provider call: well under every provider's per-call limit. */
const batchSize = 64
/**
 * Vector numbers per database write. Each vector goes into an HNSW index as its row is
 * rewritten, and on localbase PGlite is one connection: a write of 64 vectors of 1,536
 * dimensions held it for up to 3.5 s, every member's request waiting. This many (5 such
 * vectors) keeps a write to a few hundred milliseconds. Each write is its own transaction,
 * so a crash between them loses none already written: the rest are still to embed.
 */
const numbersPerWrite = 8_192
/**
 * No new batch starts after this long, so each call stays short (hosted functions have
 * little CPU time per call); the caller calls again. Tests set it to make calls predictable.
 */
const budgetMs = Number(Deno.env.get('EMBED_TIME_BUDGET_MS')) || 3000

export async function embedPending(
  admin: SupabaseClient,
  scope: Scope,
): Promise<{ embedded: number; remaining: number }> {
  const model = embeddingModel(scope.model)
  const started = Date.now()
  const left = () => budgetMs - (Date.now() - started)
  // What a promotion or a model change left to move or drop goes first (half the time at
  // most), so the chunks whose stale vectors it drops are embedded below.
  let embedded = await settle(admin, scope, () => left() > budgetMs / 2)
  let indexed = false
  // One batch at least, however long settling took, so every call makes headway.
  do {
    const batch = await rpc<{ id: string; content: string }[]>(admin, 'chunks_to_embed', {
      workspace_id: scope.workspaceId,
      document_id: scope.documentId,
      model: scope.model,
      staging: scope.staging,
      lim: batchSize,
    })
    if (batch.length === 0) break
    const embeddings = await embedBatch(
      model,
      batch.map((chunk) => chunk.content),
    )
    if (!indexed) {
      await rpc(admin, 'ensure_embedding_index', { dims: embeddings[0]!.length })
      indexed = true
    }
    const { stored, stale } = await store(admin, scope, batch, embeddings)
    embedded += stored
    // The workspace switched models meanwhile: what we hold is no longer wanted.
    if (stale) break
  } while (left() > 0)
  let remaining = await remainingFor(admin, scope)
  if (
    scope.staging &&
    remaining === 0 &&
    (await rpc<boolean>(admin, 'promote_embedding_model', { workspace_id: scope.workspaceId }))
  ) {
    const promoted = { ...scope, staging: false }
    // The promotion is the workspace's, whichever document's call made it: all of it moves.
    embedded += await settle(admin, { ...promoted, documentId: null }, () => left() > 0)
    remaining = await remainingFor(admin, promoted)
  }
  return { embedded, remaining }
}

const remainingFor = (admin: SupabaseClient, scope: Scope) =>
  rpc<number>(admin, 'embedding_remaining', {
    workspace_id: scope.workspaceId,
    document_id: scope.documentId,
    model: scope.model,
    staging: scope.staging,
  })

/**
 * Stale vectors (of a model no longer active or pending) dropped per step. Dropping one
 * rewrites its chunk's row and index entries: 256 a step held PGlite ~0.5 s on a filing.
 */
const dropsPerStep = 64

/**
 * Steps of settle_embeddings, each its own short transaction, while `more()` and there is
 * work (one step at least): a promotion's staged vectors moved into chunks, a few at a time
 * as writes are, and vectors of other models dropped. Returns how many vectors it moved.
 */
async function settle(admin: SupabaseClient, scope: Scope, more: () => boolean) {
  let moved = 0
  for (;;) {
    const step = await rpc<{ moved: number; dropped: number }>(admin, 'settle_embeddings', {
      workspace_id: scope.workspaceId,
      document_id: scope.documentId,
      move_numbers: numbersPerWrite,
      max_drops: dropsPerStep,
    })
    moved += step.moved
    if (step.moved + step.dropped === 0 || !more()) return moved
  }
}

/**
 * Writes a batch's vectors a few at a time. A write that stores none means the model is no
 * longer wanted (`stale`): the rest are not written.
 */
async function store(
  admin: SupabaseClient,
  scope: Scope,
  batch: { id: string }[],
  embeddings: number[][],
): Promise<{ stored: number; stale: boolean }> {
  const perWrite = Math.max(1, Math.floor(numbersPerWrite / embeddings[0]!.length))
  let stored = 0
  for (let start = 0; start < batch.length; start += perWrite) {
    const written = await rpc<number>(admin, 'store_chunk_embeddings', {
      workspace_id: scope.workspaceId,
      document_id: scope.documentId,
      model: scope.model,
      chunk_ids: batch.slice(start, start + perWrite).map((chunk) => chunk.id),
      embeddings: embeddings.slice(start, start + perWrite).map((vector) => JSON.stringify(vector)),
    })
    if (written === 0) return { stored, stale: true }
    stored += written
  }
  return { stored, stale: false }
}

/** Below this, a passage the model still refuses is not worth embedding in part. */
const shortestCut = 200

const tooLong = (error: unknown) => providerErrorMessage(error).code === 'context_too_long'

/**
 * The vectors of `values`. A model refuses a whole batch when one passage exceeds its input
 * limit (small local models take 512 tokens); then each passage goes alone, and one that is
 * still refused is cut in half until it fits: its opening stands for the whole.
 */
async function embedBatch(model: EmbeddingModel, values: string[]): Promise<number[][]> {
  try {
    return (await embedMany({ model, values, maxRetries })).embeddings
  } catch (error) {
    if (!tooLong(error)) throw error
  }
  const embeddings: number[][] = []
  for (const value of values) {
    for (let text = value; ; text = text.slice(0, Math.ceil(text.length / 2))) {
      try {
        embeddings.push((await embedMany({ model, values: [text], maxRetries })).embeddings[0]!)
        break
      } catch (error) {
        if (!tooLong(error) || text.length <= shortestCut) throw error
      }
    }
  }
  return embeddings
}

/** A database failure here is ours, not the caller's: it surfaces as a 502. */
export class DatabaseError extends Error {
  override name = 'DatabaseError'
}

async function rpc<T>(admin: SupabaseClient, name: string, args: Record<string, unknown>) {
  const { data, error } = await admin.rpc(name, args)
  if (error) throw new DatabaseError(`${name}: ${error.message}`)
  return data as T
}
