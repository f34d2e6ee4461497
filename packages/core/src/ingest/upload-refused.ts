/**
 * Storage refused the original (403: the workspace's storage quota, or a policy), so nothing
 * was stored. An UploadOriginal throws it with Storage's message; ingestFile then removes the
 * document's row and answers 'refused' with that message, as when the row itself is refused.
 */
export class UploadRefused extends Error {
  override name = 'UploadRefused'
}

/** Storage's error from supabase.storage: a refusal when its statusCode says 403. */
export function uploadError(error: { message: string; statusCode?: string }): Error {
  return error.statusCode === '403'
    ? new UploadRefused(error.message)
    : new Error(`the upload failed: ${error.message}`)
}
