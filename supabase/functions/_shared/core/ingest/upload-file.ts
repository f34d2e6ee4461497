// Generated from packages/core/src/ingest/upload-file.ts by `npm run sync:core`: edit that file, not this one.
import type { SupabaseClient } from '@supabase/supabase-js'
import { deleteDocument } from './delete-document.ts'
import { ingestFile } from './ingest-file.ts'
import { resumeOrIngest } from './resume-or-ingest.ts'
import type { IngestInput, IngestOptions, IngestResult } from './types.ts'

/**
 * The web app's upload of one file. A new version of a document goes through ingestFile;
 * any other file through resumeOrIngest, as the importer's do: the same bytes as a failed or
 * interrupted document of the workspace retry that document under its id, with its stored
 * original, instead of adding a second one. Cancelled, a new document leaves nothing behind
 * (its row and its original go); a cancelled retry leaves the earlier document failed, with
 * its original for the next retry.
 */
export async function uploadFile(
  supabase: SupabaseClient,
  input: IngestInput,
  options: IngestOptions = {},
): Promise<IngestResult> {
  const result = options.replacesId
    ? await ingestFile(supabase, input, options)
    : await resumeOrIngest(supabase, input, options)
  if (result.status === 'failed' && !result.resumed && options.signal?.aborted) {
    await deleteDocument(supabase, result.documentId)
  }
  return result
}
