// Generated from packages/core/src/ingest/count-document-stats.ts by `npm run sync:core`: edit that file, not this one.
import type { SupabaseClient } from '@supabase/supabase-js'

/**
 * Counts an indexed document's chunks into the workspace's search statistics, a few hundred
 * per call (count_document_stats, 20260101005700_chunk_stats_per_document.sql), before the
 * update that makes it ready counts what is left: counted in that one update, a long filing
 * held a self-hosted server longer than any of its chunk inserts (issues #16 and #17). Stops
 * when a call counts fewer chunks than it may.
 */
export async function countDocumentStats(
  supabase: SupabaseClient,
  documentId: string,
  signal?: AbortSignal,
  maxChunks = 200,
): Promise<void> {
  for (;;) {
    const call = supabase.rpc('count_document_stats', {
      document_id: documentId,
      max_chunks: maxChunks,
    })
    const { data, error } = await (signal ? call.abortSignal(signal) : call)
    // A database from before the function (PostgREST's "no such function") counted the
    // chunks as they were inserted: nothing is left to count.
    if (error?.code === 'PGRST202') return
    if (error) throw new Error(`the search statistics could not be counted: ${error.message}`)
    if ((data as number) < maxChunks) return
  }
}
