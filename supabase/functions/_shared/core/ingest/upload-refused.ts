// Generated from packages/core/src/ingest/upload-refused.ts by `npm run sync:core`: edit that file, not this one.
/**
 * Storage refused the original (403: the workspace's storage quota, or a policy), so nothing
 * was stored. An UploadOriginal throws it with Storage's message; ingestFile then removes the
 * document's row and answers 'refused' with that message, as when the row itself is refused.
 */
export class UploadRefused extends Error {
  override name = 'UploadRefused'
}

/**
 * Storage's answer to a failed upload as the error an UploadOriginal throws: a refusal for a
 * 403 (supabase.storage's statusCode, or TUS's HTTP status), else a failure worth a retry.
 */
export function uploadError(status: number | string | undefined, message: string): Error {
  return Number(status) === 403
    ? new UploadRefused(message)
    : new Error(`the upload failed: ${message}`)
}
