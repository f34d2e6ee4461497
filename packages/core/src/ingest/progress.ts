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
const STAGE_END: Record<IngestStage, number> = { ...STAGE_START, indexing: 1, embedding: 1 }

/** Progress within a stage writes to the documents row at most this often. */
const WRITE_EVERY_MS = 500

/**
 * Reports progress to the caller on every step, and to the documents row (which the app
 * watches through Realtime) on every stage change but throttled within a stage, so a large
 * file does not turn into hundreds of updates on the one database connection.
 */
export class ProgressReporter {
  private stage: IngestStage
  private lastWrite = Date.now()
  private readonly supabase: SupabaseClient
  private readonly documentId: string
  private readonly onProgress?: (progress: IngestProgress) => void

  constructor(
    supabase: SupabaseClient,
    documentId: string,
    onProgress?: (progress: IngestProgress) => void,
    /** The stage the row was just written with. */
    stage: IngestStage = 'uploading',
  ) {
    this.stage = stage
    this.supabase = supabase
    this.documentId = documentId
    this.onProgress = onProgress
  }

  /** Enters a stage; `share` (0..1) is how far through the stage we are. */
  async report(stage: IngestStage, share = 0): Promise<void> {
    const progress = STAGE_START[stage] + (STAGE_END[stage] - STAGE_START[stage]) * share
    this.onProgress?.({ documentId: this.documentId, stage, progress })
    const now = Date.now()
    if (stage === this.stage && now - this.lastWrite < WRITE_EVERY_MS) return
    this.stage = stage
    this.lastWrite = now
    const { error } = await this.supabase
      .from('documents')
      .update({ stage, progress })
      .eq('id', this.documentId)
    if (error) throw new Error(error.message)
  }
}
