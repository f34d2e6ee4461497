import type { IngestResult, IngestStage } from '@sourcebook/core/ingest/types'

/** What the page tells the ingest worker. */
export type ToWorker =
  /** Who to be: sent first, and again whenever the session's access token changes. */
  | { type: 'auth'; url: string; key: string; accessToken: string }
  | {
      type: 'ingest'
      jobId: string
      file: File
      workspaceId: string
      maxBytes: number
      replacesId?: string
    }
  | { type: 'retry'; jobId: string; documentId: string }
  /**
   * A file whose upload failed after its row was written: the rest of the bytes (from the TUS
   * upload at `uploadUrl`, when the page kept one), then indexing.
   */
  | {
      type: 'resume'
      jobId: string
      file: File
      workspaceId: string
      documentId: string
      uploadUrl?: string
    }
  | { type: 'cancel'; jobId: string }

/** What the worker answers, per job. */
export type FromWorker =
  | {
      type: 'progress'
      jobId: string
      documentId?: string
      stage: IngestStage
      progress: number
      /** While a scanned page is being recognised: which one, of how many. */
      ocr?: { page: number; pages: number }
    }
  | { type: 'done'; jobId: string; result: IngestResult }
  /** Something the pipeline did not turn into a result (a network failure, a bug). */
  | { type: 'crashed'; jobId: string; message: string }
  /**
   * Where an original's TUS upload is, by Storage path, for the page to keep across a reload
   * (a worker has no localStorage); null once the upload is complete.
   */
  | { type: 'upload-url'; path: string; url: string | null }
