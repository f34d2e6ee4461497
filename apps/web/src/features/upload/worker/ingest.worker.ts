// Runs ingestion off the page's thread: reading, hashing, extraction and chunking are CPU-bound.
// It has its own supabase-js client, signed in as the page's user by the access token the
// page sends (and sends again on every refresh), so RLS decides exactly as in the page.
import { processFile } from '@sourcebook/core/ingest/process-file'
import { retryDocument } from '@sourcebook/core/ingest/retry-document'
import { DOCUMENTS_BUCKET, documentStoragePath } from '@sourcebook/core/ingest/storage-path'
import type { IngestProgress, ProcessFile, UploadOriginal } from '@sourcebook/core/ingest/types'
import { uploadError } from '@sourcebook/core/ingest/upload-refused'
import { uploadFile } from '@sourcebook/core/ingest/upload-file'
import { createClient, type SupabaseClient } from '@supabase/supabase-js'
import { createBrowserOcr, OffscreenCanvasFactory } from './ocr-engine'
import type { FromWorker, ToWorker } from './protocol'
import { resumeAt, TUS_CHUNK_BYTES, tusUploader } from './tus-upload'

const scope = self as unknown as {
  onmessage: (event: MessageEvent<ToWorker>) => void
  postMessage: (message: FromWorker) => void
}

let auth: { url: string; key: string; accessToken: string } | undefined
let client: SupabaseClient | undefined
const jobs = new Map<string, AbortController>()

function supabase(): SupabaseClient {
  if (!auth) throw new Error('not signed in')
  const { url, key } = auth
  client ??= createClient(url, key, { accessToken: async () => auth?.accessToken ?? null })
  return client
}

async function run(jobId: string, work: (signal: AbortSignal) => Promise<FromWorker>) {
  const controller = new AbortController()
  jobs.set(jobId, controller)
  try {
    scope.postMessage(await work(controller.signal))
  } catch (error) {
    scope.postMessage({
      type: 'crashed',
      jobId,
      message: String((error as Error)?.message ?? error),
    })
  } finally {
    jobs.delete(jobId)
  }
}

/** Over one chunk, the original goes resumably; smaller files in one request (the default). */
function uploaderFor(bytes: Uint8Array): UploadOriginal | undefined {
  if (bytes.length <= TUS_CHUNK_BYTES) return undefined
  const { url, key } = auth!
  return tusUploader({
    url,
    key,
    accessToken: () => auth?.accessToken ?? '',
    onUrl: (path, uploadUrl) => scope.postMessage({ type: 'upload-url', path, url: uploadUrl }),
  })
}

/**
 * The original of a document whose upload was cut: the rest of the bytes (TUS resumes at the
 * server's offset; a small file starts again). Already stored in full is as good as done.
 */
async function uploadRest(
  path: string,
  bytes: Uint8Array,
  contentType: string,
  signal: AbortSignal,
) {
  try {
    const upload = uploaderFor(bytes)
    if (upload) return await upload(path, bytes, contentType, signal)
    const { error } = await supabase()
      .storage.from(DOCUMENTS_BUCKET)
      .upload(path, bytes, { contentType })
    if (error) throw uploadError(error.statusCode, error.message)
  } catch (error) {
    if (/already exists/i.test((error as Error).message)) return
    throw error
  }
}

/** Extraction and chunking here, with scanned PDF pages read by OCR. */
const process: ProcessFile = (input, hooks) =>
  processFile(input, hooks, { engine: createBrowserOcr, CanvasFactory: OffscreenCanvasFactory })

const reporter = (jobId: string) => (p: IngestProgress) =>
  scope.postMessage({ type: 'progress', jobId, ...p })

scope.onmessage = ({ data: message }) => {
  switch (message.type) {
    case 'auth':
      // A different project or key needs a new client; a new token is read on each request.
      if (auth && (auth.url !== message.url || auth.key !== message.key)) client = undefined
      auth = { url: message.url, key: message.key, accessToken: message.accessToken }
      return
    case 'cancel':
      jobs.get(message.jobId)?.abort()
      return
    case 'ingest': {
      const { jobId, file, workspaceId, maxBytes, replacesId } = message
      void run(jobId, async (signal) => {
        const bytes = new Uint8Array(await file.arrayBuffer())
        // The same bytes as a failed document retry it; a cancelled new one leaves nothing.
        const result = await uploadFile(
          supabase(),
          { workspaceId, bytes, fileName: file.name, mimeType: file.type || undefined },
          {
            signal,
            maxBytes,
            replacesId,
            onProgress: reporter(jobId),
            upload: uploaderFor(bytes),
            process,
          },
        )
        return { type: 'done', jobId, result }
      })
      return
    }
    case 'resume': {
      const { jobId, file, workspaceId, documentId, uploadUrl } = message
      void run(jobId, async (signal) => {
        reporter(jobId)({ documentId, stage: 'uploading', progress: 0 })
        const bytes = new Uint8Array(await file.arrayBuffer())
        const path = documentStoragePath(workspaceId, documentId, file.name)
        if (uploadUrl) resumeAt(path, uploadUrl)
        await uploadRest(path, bytes, file.type || 'application/octet-stream', signal)
        const result = await retryDocument(supabase(), documentId, {
          signal,
          onProgress: reporter(jobId),
          process,
        })
        return { type: 'done', jobId, result }
      })
      return
    }
    case 'retry': {
      const { jobId, documentId } = message
      void run(jobId, async (signal) => {
        const result = await retryDocument(supabase(), documentId, {
          signal,
          onProgress: reporter(jobId),
          process,
        })
        return { type: 'done', jobId, result }
      })
    }
  }
}
