// Generated from packages/core/src/ingest/retry-document.ts by `npm run sync:core`: edit that file, not this one.
import type { SupabaseClient } from '@supabase/supabase-js'
import { embedDocument } from './embed-document.ts'
import { findLive } from './find-live.ts'
import { failDocument, indexDocument, type StoredDocument } from './index-document.ts'
import { ProgressReporter, STAGE_START } from './progress.ts'
import { DOCUMENTS_BUCKET } from './storage-path.ts'
import type { IngestResult, PipelineOptions } from './types.ts'

interface DocumentRow {
  workspace_id: string
  title: string
  storage_path: string | null
  mime_type: string | null
  status: string
  sha256: string | null
  replaces_id: string | null
  error: string | null
  page_count: number | null
  chunk_count: number
}

/**
 * Runs a failed or interrupted document again from its original in Storage: its partial
 * chunks go, then extraction, chunking, indexing (and embeddings) for the same document id,
 * as ingestFile would. A new version that failed is swapped in when it succeeds. A ready
 * document whose embeddings failed (its error says so) gets the embedding stage again; other
 * ready documents are refused, and so is one whose bytes another live document already holds
 * ('duplicate'). The caller decides that a 'processing' document is really interrupted.
 */
export async function retryDocument(
  supabase: SupabaseClient,
  documentId: string,
  options: PipelineOptions = {},
): Promise<IngestResult> {
  const { data: row, error } = await supabase
    .from('documents')
    .select(
      'workspace_id, title, storage_path, mime_type, status, sha256, replaces_id, error, page_count, chunk_count',
    )
    .eq('id', documentId)
    .maybeSingle<DocumentRow>()
  if (error) throw new Error(`the document could not be read: ${error.message}`)
  if (!row) return { status: 'refused', error: 'This document does not exist.' }
  if (row.status === 'ready' && row.error) return retryEmbedding(supabase, documentId, row, options)
  if (row.status === 'ready')
    return { status: 'refused', error: `"${row.title}" is already ready.` }
  if (!row.storage_path) {
    return { status: 'refused', error: `"${row.title}" has no original to retry: upload it again.` }
  }
  if (options.signal?.aborted) return { status: 'refused', error: 'cancelled' }

  // Claiming the row is also the permission check: RLS lets only editors and owners update.
  const claimed = await supabase
    .from('documents')
    .update({
      status: 'processing',
      stage: 'extracting',
      progress: STAGE_START.extracting,
      error: null,
    })
    .eq('id', documentId)
    .select('id')
  if (claimed.error?.code === '23505' && row.sha256) return duplicateOf(supabase, row)
  if (claimed.error) throw new Error(`the document could not be claimed: ${claimed.error.message}`)
  if (claimed.data.length === 0) {
    return { status: 'refused', error: 'Only editors and owners can retry documents.' }
  }

  const doc: StoredDocument = {
    id: documentId,
    workspaceId: row.workspace_id,
    fileName: row.storage_path.split('/').pop()!,
    ...(row.mime_type ? { mimeType: row.mime_type } : {}),
    replacesId: row.replaces_id,
  }
  const progress = new ProgressReporter(supabase, documentId, {
    onProgress: options.onProgress,
    stage: 'extracting',
    heartbeatMs: options.heartbeatMs,
  })
  const started = performance.now()
  try {
    const removed = await supabase.from('chunks').delete().eq('document_id', documentId)
    if (removed.error)
      throw new Error(`its partial chunks could not be removed: ${removed.error.message}`)
    const bytes = await progress.keepAlive(() => download(supabase, row.storage_path!))
    return await indexDocument(supabase, doc, bytes, progress, options, performance.now() - started)
  } catch (cause) {
    return failDocument(supabase, doc, cause, options.signal)
  }
}

async function download(supabase: SupabaseClient, path: string): Promise<Uint8Array> {
  const { data, error } = await supabase.storage.from(DOCUMENTS_BUCKET).download(path)
  if (error) throw new Error(`the original could not be downloaded: ${error.message}`)
  return new Uint8Array(await data.arrayBuffer())
}

async function duplicateOf(supabase: SupabaseClient, row: DocumentRow): Promise<IngestResult> {
  const live = await findLive(supabase, row.workspace_id, row.sha256!)
  if (!live) return { status: 'refused', error: 'The document could not be claimed for a retry.' }
  return { status: 'duplicate', documentId: live.id, title: live.title }
}

/** The embedding stage again for a ready document whose embeddings failed. */
async function retryEmbedding(
  supabase: SupabaseClient,
  documentId: string,
  row: DocumentRow,
  { onProgress, signal }: PipelineOptions,
): Promise<IngestResult> {
  const claimed = await supabase
    .from('documents')
    .update({ stage: 'embedding', progress: STAGE_START.embedding })
    .eq('id', documentId)
    .select('id')
  if (claimed.error) throw new Error(`the document could not be claimed: ${claimed.error.message}`)
  if (claimed.data.length === 0) {
    return { status: 'refused', error: 'Only editors and owners can retry documents.' }
  }
  const progress = new ProgressReporter(supabase, documentId, { onProgress, stage: 'embedding' })
  const started = performance.now()
  const warning = await embedDocument(supabase, row.workspace_id, documentId, progress, signal)
    // Cancelled: the document stays as it was, ready with its old error.
    .catch((cause: unknown) => {
      if (signal?.aborted) return row.error!
      throw cause
    })
  const done = await supabase
    .from('documents')
    .update({ stage: 'ready', progress: 1, error: warning ?? null })
    .eq('id', documentId)
  if (done.error) throw new Error(done.error.message)
  if (signal?.aborted) return { status: 'refused', error: 'cancelled' }
  onProgress?.({ documentId, stage: 'ready', progress: 1 })
  return {
    status: 'ready',
    documentId,
    pageCount: row.page_count ?? 0,
    chunkCount: row.chunk_count,
    timings: { uploadMs: 0, extractMs: 0, chunkMs: 0, indexMs: performance.now() - started },
    ...(warning ? { warning } : {}),
  }
}
