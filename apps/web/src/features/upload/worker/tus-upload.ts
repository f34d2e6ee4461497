import { DOCUMENTS_BUCKET } from '@sourcebook/core/ingest/storage-path'
import type { UploadOriginal } from '@sourcebook/core/ingest/types'
import { uploadError } from '@sourcebook/core/ingest/upload-refused'
import { type DetailedError, Upload } from 'tus-js-client'

/** Supabase Storage's TUS chunks must be exactly 6 MB. */
export const TUS_CHUNK_BYTES = 6 * 2 ** 20

// Each unfinished upload's TUS URL, by Storage path, so that a retry resumes at the offset the
// server has. A worker has no localStorage for tus-js-client to keep it in: `onUrl` tells the
// page, which keeps it across a reload and hands it back with the file (resumeAt). Without
// one, the server sees a new upload, which is still correct.
const unfinished = new Map<string, string>()

/** Resumes the next upload of `path` from the TUS upload at `url`. */
export function resumeAt(path: string, url: string) {
  unfinished.set(path, url)
}

type Credentials = {
  url: string
  key: string
  accessToken: () => string
  /** The upload's TUS URL once the server made it, and null once the upload is complete. */
  onUrl: (path: string, url: string | null) => void
}

/**
 * Uploads an original resumably over TUS (Storage's /upload/resumable): in 6 MB chunks, each
 * retried after a cut connection, with the freshest access token on every request. A second
 * upload of the same path in this worker resumes where the first stopped.
 */
export function tusUploader({ url, key, accessToken, onUrl }: Credentials): UploadOriginal {
  return (path, bytes, contentType, signal) =>
    new Promise<void>((resolve, reject) => {
      const upload = new Upload(new Blob([bytes as Uint8Array<ArrayBuffer>]), {
        endpoint: `${url.replace(/\/$/, '')}/storage/v1/upload/resumable`,
        chunkSize: TUS_CHUNK_BYTES,
        retryDelays: [0, 1000, 3000, 5000],
        uploadDataDuringCreation: true,
        uploadUrl: unfinished.get(path) ?? null,
        onUploadUrlAvailable: () => {
          if (!upload.url) return
          unfinished.set(path, upload.url)
          onUrl(path, upload.url)
        },
        removeFingerprintOnSuccess: true,
        headers: { apikey: key, 'x-upsert': 'false' },
        metadata: { bucketName: DOCUMENTS_BUCKET, objectName: path, contentType },
        onBeforeRequest: (request) => request.setHeader('authorization', `Bearer ${accessToken()}`),
        onError: (error) => reject(tusError(error)),
        onSuccess: () => {
          unfinished.delete(path)
          onUrl(path, null)
          resolve()
        },
      })
      signal?.addEventListener('abort', () => {
        void upload.abort(true)
        reject(signal.reason)
      })
      upload.start()
    })
}

/** tus-js-client's errors carry the server's text in a long sentence; keep the reason. */
function tusError(error: Error | DetailedError): Error {
  const body = /response text: (.*?)(, request id|$)/.exec(error.message)?.[1]
  const status = 'originalResponse' in error ? error.originalResponse?.getStatus() : undefined
  return uploadError(status, body && body !== 'n/a' ? body : error.message)
}
