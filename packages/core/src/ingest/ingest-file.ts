import type { SupabaseClient } from '@supabase/supabase-js'
import type { Chunk } from '../chunk/chunk-document.ts'
import { ExtractError } from '../extract/errors.ts'
import { sha256Hex } from '../hash.ts'
import { processFile } from './process-file.ts'
import { ProgressReporter } from './progress.ts'
import { documentStoragePath } from './storage-path.ts'
import type { IngestInput, IngestOptions, IngestResult, Timings } from './types.ts'

const MB = 2 ** 20
export const DEFAULT_MAX_BYTES = 100 * MB
export const DOCUMENTS_BUCKET = 'documents'

/**
 * Ingests one file into a workspace, as the signed-in user of `supabase` (RLS decides):
 * duplicate check by SHA-256, documents row, original to Storage, extraction, chunking, chunk
 * rows in batches, then status 'ready' with the extracted text.
 *
 * On any failure (cancellation included, with error 'cancelled') the document stays as
 * status 'failed' with a person-readable error and no chunks; its original stays in Storage,
 * so it can be retried or inspected, and deleteDocument removes both. A failed document does
 * not count as a duplicate, so importing the same file again starts afresh.
 */
export async function ingestFile(
  supabase: SupabaseClient,
  { workspaceId, bytes, fileName, mimeType }: IngestInput,
  {
    onProgress,
    signal,
    maxBytes = DEFAULT_MAX_BYTES,
    batchSize = 500,
    process = processFile,
  }: IngestOptions = {},
): Promise<IngestResult> {
  if (bytes.length > maxBytes) {
    return {
      status: 'refused',
      error: `"${fileName}" is larger than ${Math.round(maxBytes / MB)} MB.`,
    }
  }
  if (signal?.aborted) return { status: 'refused', error: 'cancelled' }
  const sha256 = await sha256Hex(bytes)
  const existing = await findLive(supabase, workspaceId, sha256)
  if (existing) return { status: 'duplicate', documentId: existing.id, title: existing.title }

  const documentId = crypto.randomUUID()
  const title = (fileName.split(/[/\\]/).pop() || fileName).slice(0, 500)
  const inserted = await supabase.from('documents').insert({
    id: documentId,
    workspace_id: workspaceId,
    title,
    storage_path: documentStoragePath(workspaceId, documentId, fileName),
    mime_type: mimeType ?? null,
    size_bytes: bytes.length,
    sha256,
    status: 'processing',
    stage: 'uploading',
  })
  if (inserted.error?.code === '23505') {
    // Another import of the same bytes won the race.
    const winner = await findLive(supabase, workspaceId, sha256)
    if (winner) return { status: 'duplicate', documentId: winner.id, title: winner.title }
  }
  if (inserted.error) return { status: 'refused', error: refusal(inserted.error) }

  const progress = new ProgressReporter(supabase, documentId, onProgress)
  const timings: Timings = { uploadMs: 0, extractMs: 0, chunkMs: 0, indexMs: 0 }
  try {
    await progress.report('uploading')
    let started = performance.now()
    const upload = await supabase.storage
      .from(DOCUMENTS_BUCKET)
      .upload(documentStoragePath(workspaceId, documentId, fileName), bytes, {
        contentType: mimeType || 'application/octet-stream',
      })
    if (upload.error) throw new Error(`the upload failed: ${upload.error.message}`)
    timings.uploadMs = performance.now() - started
    signal?.throwIfAborted()

    await progress.report('extracting')
    const processed = await process({ bytes, fileName, mimeType })
    timings.extractMs = processed.extractMs
    timings.chunkMs = processed.chunkMs
    signal?.throwIfAborted()
    await progress.report('chunking', 1)

    started = performance.now()
    const { chunks } = processed
    for (let i = 0; i < chunks.length; i += batchSize) {
      await progress.report('indexing', i / chunks.length)
      const rows = chunks.slice(i, i + batchSize).map((c) => chunkRow(c, documentId, workspaceId))
      const insert = supabase.from('chunks').insert(rows)
      const { error } = await (signal ? insert.abortSignal(signal) : insert)
      if (error) throw new Error(`the chunks could not be stored: ${error.message}`)
      signal?.throwIfAborted()
    }
    // Embedding hook: when the workspace has an embedding model, report('embedding') and
    // write chunks.embedding here, before the document is marked ready.
    const done = await supabase
      .from('documents')
      .update({
        status: 'ready',
        stage: 'ready',
        progress: 1,
        error: null,
        extracted_text: processed.text,
        page_count: processed.pageCount,
        chunk_count: chunks.length,
      })
      .eq('id', documentId)
    if (done.error) throw new Error(done.error.message)
    timings.indexMs = performance.now() - started
    onProgress?.({ documentId, stage: 'ready', progress: 1 })
    return {
      status: 'ready',
      documentId,
      pageCount: processed.pageCount,
      chunkCount: chunks.length,
      timings,
    }
  } catch (cause) {
    const error = failureMessage(cause, fileName, signal)
    await markFailed(supabase, documentId, error)
    return { status: 'failed', documentId, error }
  }
}

async function findLive(supabase: SupabaseClient, workspaceId: string, sha256: string) {
  const { data, error } = await supabase
    .from('documents')
    .select('id, title')
    .eq('workspace_id', workspaceId)
    .eq('sha256', sha256)
    .neq('status', 'failed')
    .limit(1)
    .maybeSingle<{ id: string; title: string }>()
  if (error) throw new Error(`the duplicate check failed: ${error.message}`)
  return data
}

function chunkRow(chunk: Chunk, documentId: string, workspaceId: string) {
  return {
    document_id: documentId,
    workspace_id: workspaceId,
    ordinal: chunk.ordinal,
    content: chunk.content,
    heading_path: chunk.headingPath,
    page_start: chunk.pageStart,
    page_end: chunk.pageEnd,
    char_start: chunk.charStart,
    char_end: chunk.charEnd,
    token_count: chunk.tokenCount,
  }
}

function refusal(error: { code?: string; message: string }): string {
  if (error.code === '42501') return 'Only editors and owners can add documents to this workspace.'
  return `The document could not be created: ${error.message}`
}

function failureMessage(cause: unknown, fileName: string, signal?: AbortSignal): string {
  if (signal?.aborted) return 'cancelled'
  if (cause instanceof ExtractError) return cause.message
  const message = cause instanceof Error ? cause.message : String(cause)
  return `"${fileName}" could not be imported: ${message}`
}

/** Leaves nothing half-indexed: the chunks go, the row says why. Best effort (no signal). */
async function markFailed(supabase: SupabaseClient, documentId: string, error: string) {
  await supabase.from('chunks').delete().eq('document_id', documentId)
  await supabase
    .from('documents')
    .update({ status: 'failed', error, progress: 0, chunk_count: 0 })
    .eq('id', documentId)
}
