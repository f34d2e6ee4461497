import type { SupabaseClient } from '@supabase/supabase-js'
import type { Chunk } from '../chunk/chunk-document.ts'
import { ExtractError } from '../extract/errors.ts'
import { BATCH_ROWS, chunkBatches } from './chunk-batches.ts'
import { countDocumentStats } from './count-document-stats.ts'
import { detectSignals } from '../signals/detect-signals.ts'
import { embedDocument } from './embed-document.ts'
import { processFile } from './process-file.ts'
import type { ProgressReporter } from './progress.ts'
import { swapInNewVersion } from './replace-document.ts'
import type { IngestResult, PipelineOptions, Timings } from './types.ts'

/** A documents row whose original is in Storage, about to be (re)indexed. */
export interface StoredDocument {
  id: string
  workspaceId: string
  fileName: string
  mimeType?: string
  /** Set for a new version: it is swapped in for that document once indexed. */
  replacesId?: string | null
}

/**
 * From an uploaded original to a ready document: extraction and chunking, chunk rows in
 * batches, the embedding stage when the workspace has a model, its chunks counted into the
 * search statistics (with a heartbeat on the row throughout), then the text and ready (or,
 * for a new version, swapped in for the current one). Shared by ingestFile and retryDocument;
 * the document must have no chunks yet. Any failure goes through failDocument.
 */
export async function indexDocument(
  supabase: SupabaseClient,
  doc: StoredDocument,
  bytes: Uint8Array,
  progress: ProgressReporter,
  { onProgress, signal, batchSize = BATCH_ROWS, process = processFile }: PipelineOptions,
  uploadMs = 0,
): Promise<IngestResult> {
  const timings: Timings = { uploadMs, extractMs: 0, chunkMs: 0, indexMs: 0 }
  let started = 0
  try {
    const { processed, warning } = await progress.keepAlive(async () => {
      await progress.report('extracting')
      const processed = await process(
        { bytes, fileName: doc.fileName, mimeType: doc.mimeType },
        { signal, onOcrPage: (index, total) => void progress.ocrPage(index, total) },
      )
      timings.extractMs = processed.extractMs
      timings.chunkMs = processed.chunkMs
      signal?.throwIfAborted()
      await progress.report('chunking', 1)

      started = performance.now()
      await storeChunks(supabase, doc, processed.chunks, progress, batchSize, signal)
      const warning = await embedDocument(supabase, doc.workspaceId, doc.id, progress, signal)
      await countDocumentStats(supabase, doc.id, signal)
      return { processed, warning }
    })
    const { chunks } = processed
    const signals = detectSignals(doc.fileName, chunks[0]?.content ?? '')
    // The text before the row turns ready, so a viewer opening it then finds the text.
    const text = await supabase.from('document_texts').upsert({
      document_id: doc.id,
      workspace_id: doc.workspaceId,
      text: processed.text,
      opening: signals.opening,
      ocr_lines: processed.ocr ?? null,
    })
    if (text.error) throw new Error(`the extracted text could not be stored: ${text.error.message}`)
    const fields = {
      progress: 1,
      error: warning ?? null,
      page_count: processed.pageCount,
      chunk_count: chunks.length,
      ocr_pages: processed.ocr?.length ?? 0,
      periods: signals.periods,
      names: signals.names,
    }
    const done = await supabase
      .from('documents')
      .update(doc.replacesId ? fields : { ...fields, status: 'ready', stage: 'ready' })
      .eq('id', doc.id)
      // Not when reap_interrupted_documents took the row for dead meanwhile (a stall past
      // its threshold): its chunks may be gone, so this attempt fails rather than lie.
      .eq('status', 'processing')
      .select('id')
    if (done.error) throw new Error(done.error.message)
    if (done.data.length === 0) throw new Error('it was marked interrupted while it ran')
    // The swap is the last step that can fail the new version; nothing after it may throw.
    const removal = doc.replacesId ? await swapInNewVersion(supabase, doc.id) : undefined
    timings.indexMs = performance.now() - started
    onProgress?.({ documentId: doc.id, stage: 'ready', progress: 1 })
    const warnings = [warning, removal].filter(Boolean).join(' ')
    return {
      status: 'ready',
      documentId: doc.id,
      pageCount: processed.pageCount,
      chunkCount: chunks.length,
      timings,
      ...(warnings ? { warning: warnings } : {}),
    }
  } catch (cause) {
    return failDocument(supabase, doc, cause, signal)
  }
}

/**
 * Leaves nothing half-indexed: the chunks (their vectors with them) and the text go, the row
 * becomes failed with a reason a person understands ('cancelled' when the signal fired), and
 * the original stays in Storage for a retry. Best effort, without the signal.
 */
export async function failDocument(
  supabase: SupabaseClient,
  doc: StoredDocument,
  cause: unknown,
  signal?: AbortSignal,
): Promise<IngestResult> {
  const error = failureMessage(cause, doc.fileName, signal)
  await Promise.all([
    supabase.from('chunks').delete().eq('document_id', doc.id),
    supabase.from('document_texts').delete().eq('document_id', doc.id),
  ])
  await supabase
    .from('documents')
    .update({ status: 'failed', error, progress: 0, chunk_count: 0 })
    .eq('id', doc.id)
  return { status: 'failed', documentId: doc.id, error }
}

/**
 * The chunk rows, at most `batchSize` and about BATCH_CHARS of text per insert, with progress
 * through the indexing stage.
 */
async function storeChunks(
  supabase: SupabaseClient,
  doc: StoredDocument,
  chunks: Chunk[],
  progress: ProgressReporter,
  batchSize: number,
  signal?: AbortSignal,
): Promise<void> {
  let stored = 0
  for (const batch of chunkBatches(chunks, (c) => c.content.length, batchSize)) {
    await progress.report('indexing', stored / chunks.length)
    stored += batch.length
    const rows = batch.map((c) => chunkRow(c, doc))
    const insert = supabase.from('chunks').insert(rows)
    const { error } = await (signal ? insert.abortSignal(signal) : insert)
    if (error) throw new Error(`the chunks could not be stored: ${error.message}`)
    signal?.throwIfAborted()
  }
}

function chunkRow(chunk: Chunk, doc: StoredDocument) {
  return {
    document_id: doc.id,
    workspace_id: doc.workspaceId,
    ordinal: chunk.ordinal,
    content: chunk.content,
    heading_path: chunk.headingPath,
    page_start: chunk.pageStart,
    page_end: chunk.pageEnd,
    char_start: chunk.charStart,
    char_end: chunk.charEnd,
    token_count: chunk.tokenCount,
  }
}

function failureMessage(cause: unknown, fileName: string, signal?: AbortSignal): string {
  if (signal?.aborted) return 'cancelled'
  if (cause instanceof ExtractError) return cause.message
  const message = cause instanceof Error ? cause.message : String(cause)
  return `"${fileName}" could not be imported: ${message}`
}
