/**
 * A processing document whose row has not been written for this long has no live importer:
 * ProgressReporter rewrites the row at least every 15 s while a step runs, so a minute is four
 * missed heartbeats. The one rule for "interrupted": the library shows such a document as
 * Interrupted, and a re-upload or an import of the same bytes resumes it under its id, as it
 * does a failed one (reap_interrupted_documents marks it failed only later, after 2 minutes).
 */
export const INTERRUPTED_AFTER_MS = 60_000

export interface Heartbeat {
  status: string
  updated_at: string
}

/** Whether this document's import has stopped, as of `now` (ms since the epoch). */
export function isInterrupted(document: Heartbeat, now: number): boolean {
  return (
    document.status === 'processing' && now - Date.parse(document.updated_at) > INTERRUPTED_AFTER_MS
  )
}

/** The instant before which a processing document's last write means it is interrupted. */
export function interruptedBefore(now: number): string {
  return new Date(now - INTERRUPTED_AFTER_MS).toISOString()
}
