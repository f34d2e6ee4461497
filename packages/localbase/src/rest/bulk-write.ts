import { isObject } from './body.ts'

/** Below this size no write is worth queueing behind others: it is over in a moment. */
const BULK_BODY_CHARS = 16 * 1024

/**
 * Whether a REST write is bulk work, which waits behind the requests someone is waiting on
 * (db/work-queue.ts). Decided by what the write is, not by its size alone: bulk is a large
 * write of many rows at once, as an import makes them, either a multi-row insert (a batch of
 * chunks) or a function called with arrays of more than one element (an embedding upload's
 * ids and vectors). A single-row write of any size (a long chat message, a conversation
 * saved) is someone's click: interactive. `body` is the request's text, `parsed` the same
 * parsed by the plan (parsing a chunk batch's 24 KB again cost the main thread as much).
 */
export function isBulkWrite(method: string, rpc: boolean, body: string, parsed: unknown): boolean {
  if (method !== 'POST' || body.length <= BULK_BODY_CHARS) return false
  if (!rpc) return Array.isArray(parsed) && parsed.length > 1
  return isObject(parsed) && Object.values(parsed).some((v) => Array.isArray(v) && v.length > 1)
}
