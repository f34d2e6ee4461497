// Generated from packages/core/src/ingest/progress.ts by `npm run sync:core`: edit that file, not this one.
import type { SupabaseClient } from '@supabase/supabase-js'
import type { IngestProgress, IngestStage } from './types.ts'

/** Where each stage starts on the 0..1 progress scale (roughly its share of the time). */
export const STAGE_START: Record<IngestStage, number> = {
  uploading: 0,
  extracting: 0.1,
  chunking: 0.5,
  indexing: 0.6,
  embedding: 0.9,
  ready: 1,
}
/**
 * Where a stage with steps of its own ends: extraction's steps are OCR's pages (a scan's pages
 * take seconds each, the rest of extraction very little), indexing's chunks, embedding's batches.
 */
const STAGE_END: Record<IngestStage, number> = {
  ...STAGE_START,
  extracting: STAGE_START.chunking,
  indexing: 1,
  embedding: 1,
}

/** Progress within a stage writes to the documents row at most this often. */
const WRITE_EVERY_MS = 500

/**
 * While a step runs, the row is written at least this often: a processing document whose
 * updated_at is INTERRUPTED_AFTER_MS old is interrupted (shown so, and resumed by a re-upload).
 */
const HEARTBEAT_MS = 15_000

export interface ProgressReporterOptions {
  onProgress?: ((progress: IngestProgress) => void) | undefined
  /** The stage the row was just written with. */
  stage?: IngestStage
  heartbeatMs?: number | undefined
}

/**
 * Reports progress to the caller on every step, and to the documents row (which the app
 * watches through Realtime) on every stage change but throttled within a stage, so a large
 * file does not turn into hundreds of updates on the one database connection. `keepAlive`
 * rewrites the row while a long step (an upload, an extraction) reports nothing.
 *
 * Inside keepAlive the row is written in the background, one write at a time with the latest
 * progress, and the step goes on meanwhile: on a busy self-hosted server a write waits behind
 * every request in the database's queue (half a second under bench:load's 50 clients), and an
 * import that waited for each one before its next chunk insert ran at half its pace (issue
 * #16). keepAlive waits for the last write before returning, so none lands after the caller's
 * next write ('failed' or 'ready'). A failed write there is retried by the next report or
 * beat, as a heartbeat is.
 */
export class ProgressReporter {
  private stage: IngestStage
  private progress: number
  /** The page OCR is on, until the next report. */
  private ocr: { page: number; pages: number } | null = null
  /** Whether the row holds an OCR page, which the next write must clear. */
  private ocrWritten = false
  private lastWrite = Date.now()
  private readonly supabase: SupabaseClient
  private readonly documentId: string
  private readonly onProgress: ((progress: IngestProgress) => void) | undefined
  private readonly heartbeatMs: number
  /** Whether keepAlive is running a step, so writes go in the background. */
  private inStep = false
  /** The background writes under way, while there are any. */
  private writing: Promise<void> | null = null
  /** Whether the row needs writing again once the write under way is done. */
  private due = false

  constructor(
    supabase: SupabaseClient,
    documentId: string,
    { onProgress, stage = 'uploading', heartbeatMs = HEARTBEAT_MS }: ProgressReporterOptions = {},
  ) {
    this.stage = stage
    this.progress = STAGE_START[stage]
    this.supabase = supabase
    this.documentId = documentId
    this.onProgress = onProgress
    this.heartbeatMs = heartbeatMs
  }

  /** Enters a stage; `share` (0..1) is how far through the stage we are. */
  async report(stage: IngestStage, share = 0): Promise<void> {
    const progress = STAGE_START[stage] + (STAGE_END[stage] - STAGE_START[stage]) * share
    this.onProgress?.({ documentId: this.documentId, stage, progress })
    const changed = stage !== this.stage || this.ocr !== null
    this.stage = stage
    this.progress = progress
    this.ocr = null
    if (!changed && Date.now() - this.lastWrite < WRITE_EVERY_MS) return
    if (this.inStep) void this.writeSoon()
    else await this.write()
  }

  /**
   * OCR of page `index` of `total` begins (within extraction): the caller hears which page, for
   * "Recognising page 4 of 30", and so does the row, for teammates watching the library. A page
   * takes seconds, so each is written (no burst to throttle). Never throws: extraction does not
   * wait on it, and a failed write is retried by the next report or beat.
   */
  ocrPage(index: number, total: number): Promise<void> {
    const share = (index - 1) / total
    const progress =
      STAGE_START.extracting + (STAGE_END.extracting - STAGE_START.extracting) * share
    this.onProgress?.({
      documentId: this.documentId,
      stage: 'extracting',
      progress,
      ocr: { page: index, pages: total },
    })
    this.stage = 'extracting'
    this.progress = progress
    this.ocr = { page: index, pages: total }
    if (this.inStep) return this.writeSoon()
    return this.write().catch(() => {})
  }

  /**
   * Runs `step`, writing the last reported progress to the row whenever it has not been
   * written for heartbeatMs. Stops (waiting for a write under way) before returning, so no
   * heartbeat lands after the caller's next write, such as 'failed' or 'ready'.
   */
  async keepAlive<T>(step: () => Promise<T>): Promise<T> {
    let timer: ReturnType<typeof setTimeout> | undefined
    let running = true
    const schedule = () => {
      timer = setTimeout(beat, Math.max(0, this.lastWrite + this.heartbeatMs - Date.now()))
    }
    const beat = () => {
      const beating = Date.now() - this.lastWrite >= this.heartbeatMs ? this.writeSoon() : null
      void Promise.resolve(beating).then(() => running && schedule())
    }
    const outer = this.inStep
    this.inStep = true
    schedule()
    try {
      return await step()
    } finally {
      running = false
      clearTimeout(timer)
      this.inStep = outer
      await this.writing
    }
  }

  /**
   * Writes the row in the background: now if no write is under way, else once more when it
   * is done (with the progress of then). A failed write is not the step's failure.
   */
  private writeSoon(): Promise<void> {
    this.due = true
    this.writing ??= (async () => {
      while (this.due) {
        this.due = false
        await this.write().catch(() => {})
      }
      this.writing = null
    })()
    return this.writing
  }

  private async write(): Promise<void> {
    this.lastWrite = Date.now()
    // The OCR columns are written only around OCR, so a file without scanned pages imports
    // into a project whose schema predates them (20260101005400_ocr_progress.sql).
    const ocr = this.ocr
      ? { ocr_page: this.ocr.page, ocr_page_count: this.ocr.pages }
      : this.ocrWritten
        ? { ocr_page: null, ocr_page_count: null }
        : {}
    const { error } = await this.supabase
      .from('documents')
      .update({ stage: this.stage, progress: this.progress, ...ocr })
      .eq('id', this.documentId)
    if (error) throw new Error(error.message)
    this.ocrWritten = this.ocr !== null
  }
}
