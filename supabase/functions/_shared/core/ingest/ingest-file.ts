// Generated from packages/core/src/ingest/ingest-file.ts by `npm run sync:core`: edit that file, not this one.
import type { SupabaseClient } from '@supabase/supabase-js'
import { sha256Hex } from '../hash.ts'
import { readableTitle } from '../signals/readable-title.ts'
import { fileRefusal } from './file-types.ts'
import { findLive } from './find-live.ts'
import { failDocument, indexDocument, type StoredDocument } from './index-document.ts'
import { ProgressReporter } from './progress.ts'
import { DOCUMENTS_BUCKET, documentStoragePath } from './storage-path.ts'
import type { IngestInput, IngestOptions, IngestResult } from './types.ts'
import { UploadRefused, uploadError } from './upload-refused.ts'

export const DEFAULT_MAX_BYTES = 100 * 2 ** 20

/**
 * Ingests one file into a workspace, as the signed-in user of `supabase` (RLS decides):
 * checks that refuse before anything is written (size, type, permission, the workspace's
 * storage quota), duplicate check by SHA-256, documents row, original to Storage, then
 * indexDocument (extraction, chunks, embeddings, ready).
 *
 * On any failure (cancellation included, with error 'cancelled') the document stays as
 * status 'failed' with a person-readable error and no chunks; its original stays in Storage,
 * so retryDocument can try again, and deleteDocument removes both. A failed document does
 * not count as a duplicate, so importing the same file again starts afresh.
 *
 * The title is the file name made readable (readableTitle), the file name kept beside it.
 * With `replacesId`, the file becomes a new row with replaces_id set, taking the replaced
 * document's title, and is swapped in for it once indexed; if it fails, the current version
 * is untouched and the failed new row can be retried or deleted.
 */
export async function ingestFile(
  supabase: SupabaseClient,
  { workspaceId, bytes, fileName, mimeType, title }: IngestInput,
  options: IngestOptions = {},
): Promise<IngestResult> {
  const { onProgress, signal, maxBytes = DEFAULT_MAX_BYTES, replacesId } = options
  const refused = fileRefusal(bytes, fileName, mimeType, maxBytes)
  if (refused) return { status: 'refused', error: refused }
  if (signal?.aborted) return { status: 'refused', error: 'cancelled' }
  const sha256 = await sha256Hex(bytes)
  const existing = await findLive(supabase, workspaceId, sha256)
  if (existing) return { status: 'duplicate', documentId: existing.id, title: existing.title }
  if (replacesId) {
    const current = await documentToReplace(supabase, replacesId)
    if (current?.workspace_id !== workspaceId) {
      return { status: 'refused', error: 'The document to replace is not in this workspace.' }
    }
    title ??= current.title
  }

  const documentId = crypto.randomUUID()
  const storagePath = documentStoragePath(workspaceId, documentId, fileName)
  const baseName = (fileName.split(/[/\\]/).pop() || fileName).slice(0, 500)
  const inserted = await supabase.from('documents').insert({
    id: documentId,
    workspace_id: workspaceId,
    // The file name stays as a detail; people read the title, which editors may change.
    title: (title ?? readableTitle(baseName)).slice(0, 500),
    file_name: baseName,
    storage_path: storagePath,
    mime_type: mimeType ?? null,
    size_bytes: bytes.length,
    sha256,
    status: 'processing',
    stage: 'uploading',
    replaces_id: replacesId ?? null,
  })
  if (inserted.error?.code === '23505') {
    // Another import of the same bytes won the race.
    const winner = await findLive(supabase, workspaceId, sha256)
    if (winner) return { status: 'duplicate', documentId: winner.id, title: winner.title }
  }
  if (inserted.error) return { status: 'refused', error: refusal(inserted.error) }

  const doc = { id: documentId, workspaceId, fileName, mimeType, replacesId }
  const progress = new ProgressReporter(supabase, documentId, {
    onProgress,
    heartbeatMs: options.heartbeatMs,
  })
  const started = performance.now()
  try {
    await progress.report('uploading')
    const contentType = mimeType || 'application/octet-stream'
    await progress.keepAlive(async () => {
      if (options.upload) return options.upload(storagePath, bytes, contentType, signal)
      const upload = await supabase.storage
        .from(DOCUMENTS_BUCKET)
        .upload(storagePath, bytes, { contentType })
      if (upload.error) throw uploadError(upload.error.statusCode, upload.error.message)
    })
    signal?.throwIfAborted()
  } catch (cause) {
    if (cause instanceof UploadRefused) return withdraw(supabase, doc, cause.message, signal)
    return failDocument(supabase, doc, cause, signal)
  }
  return indexDocument(supabase, doc, bytes, progress, options, performance.now() - started)
}

/**
 * Storage refused the original (the workspace filled up since the row was checked, say), so
 * nothing was stored: the row goes too, and the file is refused as if it never got that far.
 */
async function withdraw(
  supabase: SupabaseClient,
  doc: StoredDocument,
  error: string,
  signal?: AbortSignal,
): Promise<IngestResult> {
  const removed = await supabase.from('documents').delete().eq('id', doc.id)
  if (removed.error) return failDocument(supabase, doc, new Error(error), signal)
  return { status: 'refused', error }
}

async function documentToReplace(supabase: SupabaseClient, documentId: string) {
  const { data, error } = await supabase
    .from('documents')
    .select('title, workspace_id')
    .eq('id', documentId)
    .maybeSingle<{ title: string; workspace_id: string }>()
  if (error) throw new Error(`the document to replace could not be read: ${error.message}`)
  return data
}

/** Why the documents row was refused: the caller's role, the storage quota, or else. */
function refusal(error: { code?: string; message: string }): string {
  if (error.code === '42501') return 'Only editors and owners can add documents to this workspace.'
  if (error.code === 'QUOTA') return error.message
  return `The document could not be created: ${error.message}`
}
