import type { SupabaseClient } from '@supabase/supabase-js'
import { sha256Hex } from '../hash.ts'
import { findLive, type LiveDocument } from './find-live.ts'
import { failDocument } from './index-document.ts'
import { ingestFile } from './ingest-file.ts'
import { databaseNow, interruptedBefore, isInterrupted } from './interrupted.ts'
import { STAGE_START } from './progress.ts'
import { retryDocument } from './retry-document.ts'
import { DOCUMENTS_BUCKET } from './storage-path.ts'
import type { IngestInput, IngestOptions, IngestResult, ResumedFrom } from './types.ts'

/**
 * The importer's way in: a file whose bytes a failed or interrupted document of the workspace
 * already holds (an import that failed, or one whose heartbeat stopped: isInterrupted, the
 * rule the library shows Interrupted by, whether or not reap_interrupted_documents has marked
 * it failed yet) resumes that document under its id, instead of starting a second one beside it.
 * Its stored original is reused when it holds these bytes, and written again (same path)
 * when it is missing or differs, so a resume never adds an object. If the resume fails, the
 * same row is failed again: nothing new is left behind. A document of the same bytes whose
 * import is alive (or that is ready) is still a duplicate, and any other file goes through
 * ingestFile. A resume's ready or failed result says `resumed`: from a failed document or an
 * interrupted one.
 */
export async function resumeOrIngest(
  supabase: SupabaseClient,
  input: IngestInput,
  options: IngestOptions = {},
): Promise<IngestResult> {
  const sha256 = await sha256Hex(input.bytes)
  const live = await findLive(supabase, input.workspaceId, sha256)
  // Judged by the database's clock, which wrote updated_at: this machine's may be off.
  const now = live ? await databaseNow(supabase) : 0
  if (live && !resumable(live, now))
    return { status: 'duplicate', documentId: live.id, title: live.title }
  // The one live document of these bytes (a unique index) when interrupted, else a failed one.
  const earlier = live ?? (await findFailed(supabase, input.workspaceId, sha256))
  if (!earlier) return ingestFile(supabase, input, options)
  // Claimed only while still failed or interrupted (the claim is a heartbeat): of two copies
  // of a file in one folder (or two importers), one resumes it and the other finds a live
  // document, a duplicate, as ingestFile would.
  const claim = supabase
    .from('documents')
    .update({ status: 'processing', stage: 'uploading', progress: STAGE_START.uploading })
    .eq('id', earlier.id)
  const claimed = await (
    live
      ? claim.eq('status', 'processing').lt('updated_at', interruptedBefore(now))
      : claim.eq('status', 'failed')
  ).select('id')
  if (claimed.error?.code === '23505' || claimed.data?.length === 0) {
    const winner = await findLive(supabase, input.workspaceId, sha256)
    if (winner) return { status: 'duplicate', documentId: winner.id, title: winner.title }
  }
  if (claimed.error || claimed.data.length === 0) {
    return { status: 'refused', error: 'The earlier attempt could not be claimed for a resume.' }
  }
  const contentType = input.mimeType || 'application/octet-stream'
  const doc = { id: earlier.id, workspaceId: input.workspaceId, fileName: input.fileName }
  const from: ResumedFrom = live ? 'interrupted' : 'failed'
  try {
    await keepOriginal(supabase, earlier.storage_path, input.bytes, sha256, contentType)
    // Cancelled meanwhile: failed again now, not left 'processing' until it is reaped.
    options.signal?.throwIfAborted()
  } catch (cause) {
    return resumed(await failDocument(supabase, doc, cause, options.signal), from)
  }
  return resumed(await retryDocument(supabase, earlier.id, options), from)
}

/** An interrupted document with an original, not a pending new version: resumed, not a duplicate. */
function resumable(
  live: LiveDocument,
  now: number,
): live is LiveDocument & { storage_path: string } {
  return isInterrupted(live, now) && live.storage_path !== null && live.replaces_id === null
}

/** Marks the outcome of a resume as such, so callers tell it from a new document's. */
function resumed(result: IngestResult, from: ResumedFrom): IngestResult {
  return result.status === 'ready' || result.status === 'failed'
    ? { ...result, resumed: from }
    : result
}

/** The oldest failed document of these bytes with an original, not a pending new version. */
async function findFailed(supabase: SupabaseClient, workspaceId: string, sha256: string) {
  const { data, error } = await supabase
    .from('documents')
    .select('id, storage_path')
    .eq('workspace_id', workspaceId)
    .eq('sha256', sha256)
    .eq('status', 'failed')
    .is('replaces_id', null)
    .not('storage_path', 'is', null)
    .order('created_at')
    .limit(1)
    .maybeSingle<{ id: string; storage_path: string }>()
  if (error) throw new Error(`the search for an earlier attempt failed: ${error.message}`)
  return data
}

/** Leaves `bytes` at `path`: untouched when already there, else uploaded over what is. */
async function keepOriginal(
  supabase: SupabaseClient,
  path: string,
  bytes: Uint8Array,
  sha256: string,
  contentType: string,
) {
  const bucket = supabase.storage.from(DOCUMENTS_BUCKET)
  const stored = await bucket.download(path)
  if (
    !stored.error &&
    (await sha256Hex(new Uint8Array(await stored.data.arrayBuffer()))) === sha256
  )
    return
  const upload = await bucket.upload(path, bytes, { contentType, upsert: true })
  if (upload.error) throw new Error(`the original could not be stored: ${upload.error.message}`)
}
