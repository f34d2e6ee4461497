// Generated from packages/core/src/ingest/interrupted.ts by `npm run sync:core`: edit that file, not this one.
import type { SupabaseClient } from '@supabase/supabase-js'

/**
 * A processing document whose row has not been written for this long has no live importer:
 * ProgressReporter rewrites the row at least every 15 s while a step runs, so a minute is four
 * missed heartbeats. The one rule for "interrupted": the library shows such a document as
 * Interrupted, and a re-upload or an import of the same bytes resumes it under its id, as it
 * does a failed one (reap_interrupted_documents marks it failed only later, after 2 minutes).
 * updated_at is the database's time, so `now` must be too (databaseNow), never the caller's
 * own clock, which may be minutes off.
 */
export const INTERRUPTED_AFTER_MS = 60_000

export interface Heartbeat {
  status: string
  updated_at: string
}

/** Whether this document's import has stopped, as of the database's `now` (ms since the epoch). */
export function isInterrupted(document: Heartbeat, now: number): boolean {
  return (
    document.status === 'processing' && now - Date.parse(document.updated_at) > INTERRUPTED_AFTER_MS
  )
}

/** The instant before which a processing document's last write means it is interrupted. */
export function interruptedBefore(now: number): string {
  return new Date(now - INTERRUPTED_AFTER_MS).toISOString()
}

/** The database's clock (ms since the epoch), read through the API: see database_now. */
export async function databaseNow(supabase: SupabaseClient): Promise<number> {
  const { data, error } = await supabase.rpc('database_now')
  if (error) throw new Error(`the database's time could not be read: ${error.message}`)
  return Date.parse(data as string)
}
