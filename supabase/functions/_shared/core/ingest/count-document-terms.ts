// Generated from packages/core/src/ingest/count-document-terms.ts by `npm run sync:core`: edit that file, not this one.
import type { SupabaseClient } from '@supabase/supabase-js'

/**
 * Counts an indexed document's terms into the workspace's search statistics, a range of
 * terms per call (count_document_terms, 20260101005700_chunk_stats_per_document.sql), before
 * the update that makes it ready counts what is left: counted in that one update, a long
 * filing's terms held a self-hosted server for as long as its longest chunk inserts together
 * (issues #16 and #17). Stops when a call counts fewer terms than it may.
 */
export async function countDocumentTerms(
  supabase: SupabaseClient,
  documentId: string,
  signal?: AbortSignal,
  maxTerms = 2000,
): Promise<void> {
  for (;;) {
    const call = supabase.rpc('count_document_terms', {
      document_id: documentId,
      max_terms: maxTerms,
    })
    const { data, error } = await (signal ? call.abortSignal(signal) : call)
    if (error) throw new Error(`the search statistics could not be counted: ${error.message}`)
    if ((data as number) < maxTerms) return
  }
}
