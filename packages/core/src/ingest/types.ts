import type { Chunk } from '../chunk/chunk-document.ts'
import type { OcrPage } from '../extract/ocr.ts'
import type { ExtractInput } from '../extract/types.ts'

export type IngestStage =
  'uploading' | 'extracting' | 'chunking' | 'indexing' | 'embedding' | 'ready'

export interface IngestInput {
  workspaceId: string
  bytes: Uint8Array
  fileName: string
  mimeType?: string
  /** The document's title: the file name made readable by default, or the replaced one's. */
  title?: string
}

export interface IngestProgress {
  documentId: string
  stage: IngestStage
  /** 0..1 over the whole pipeline. */
  progress: number
  /** While a scanned page is being recognised: which one, of how many without text. */
  ocr?: { page: number; pages: number }
}

/** What extraction and chunking produced for one file, and how long each took. */
export interface Processed {
  text: string
  pageCount: number
  chunks: Chunk[]
  extractMs: number
  chunkMs: number
  /** PDF pages read by OCR, with their line boxes (absent when none were). */
  ocr?: OcrPage[]
}

/** What the pipeline hands a ProcessFile besides the file: cancel, and OCR progress per page. */
export interface ProcessHooks {
  signal?: AbortSignal
  /** Before OCR of page `index` of the `total` pages without text. */
  onOcrPage?: (index: number, total: number) => void
}

/**
 * Extraction + chunking. In-thread by default; the CLI passes a worker pool, since both are
 * CPU-bound. Throws ExtractError for files that cannot be read.
 */
export type ProcessFile = (input: ExtractInput, hooks?: ProcessHooks) => Promise<Processed>

/** Options shared by ingestFile and retryDocument. */
export interface PipelineOptions {
  onProgress?: (progress: IngestProgress) => void
  signal?: AbortSignal
  /** At most this many chunk rows per insert (default BATCH_ROWS, and BATCH_CHARS of text). */
  batchSize?: number
  process?: ProcessFile
  /** How often the documents row is rewritten while a long step reports nothing (15 s). */
  heartbeatMs?: number
}

export interface IngestOptions extends PipelineOptions {
  /** Files larger than this are refused before anything is written (default 100 MB). */
  maxBytes?: number
  /**
   * Ingests the file as a new version of this document: the current version stays (and stays
   * searchable) until the new one is indexed, then replace_document swaps them at once.
   */
  replacesId?: string
  /**
   * Puts the original into the documents bucket at `path`; throws when it cannot, an
   * UploadRefused when Storage refused the file (403). By default supabase.storage's single
   * request; the web app passes a resumable (TUS) upload for large files.
   */
  upload?: UploadOriginal
}

export type UploadOriginal = (
  path: string,
  bytes: Uint8Array,
  contentType: string,
  signal?: AbortSignal,
) => Promise<void>

export type IngestResult =
  | {
      status: 'ready'
      documentId: string
      pageCount: number
      chunkCount: number
      timings: Timings
      /** Ready, but something did not work out (embeddings failed): also in documents.error. */
      warning?: string
      /** An earlier failed or interrupted document of the same bytes, resumed under its id. */
      resumed?: ResumedFrom
    }
  | { status: 'duplicate'; documentId: string; title: string }
  /**
   * Nothing stays: the file was refused before a document existed, or Storage refused it
   * (an UploadRefused) and its row was removed.
   */
  | { status: 'refused'; error: string }
  /** The document row stays, status 'failed' with this error, without chunks. */
  | { status: 'failed'; documentId: string; error: string; resumed?: ResumedFrom }

/**
 * How the earlier attempt a resume took up had ended: its import failed, or it stopped without
 * a word (isInterrupted), so that what is said of the resume matches what happened.
 */
export type ResumedFrom = 'failed' | 'interrupted'

/** Milliseconds per stage, for the importer's summary and the benchmark. */
export interface Timings {
  uploadMs: number
  extractMs: number
  chunkMs: number
  indexMs: number
}
