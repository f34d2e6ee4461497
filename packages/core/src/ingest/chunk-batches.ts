/**
 * How many chunk rows go in one insert. A self-hosted server runs one statement at a time
 * (localbase on PGlite), and a chunk insert's cost grows with its text (the search column and
 * its index): 500 filing chunks held it for 2–5 s, and every request waited. Inserts of about
 * 24,000 characters (some 15 chunks of prose, 60–250 ms) leave room for requests in between
 * (bench:load, issue #16). The term statistics, which made short inserts dearer per chunk,
 * are counted once per document since (count-document-terms.ts, issue #17).
 */
export const BATCH_ROWS = 100
export const BATCH_CHARS = 24_000

/** `items` in order, in batches of at most `maxRows` and about `maxChars` of `size` each. */
export function chunkBatches<T>(
  items: T[],
  size: (item: T) => number,
  maxRows = BATCH_ROWS,
  maxChars = BATCH_CHARS,
): T[][] {
  const batches: T[][] = []
  let batch: T[] = []
  let chars = 0
  for (const item of items) {
    const itemChars = size(item)
    // An item larger than the budget still goes, alone.
    if (batch.length > 0 && (batch.length >= maxRows || chars + itemChars > maxChars)) {
      batches.push(batch)
      batch = []
      chars = 0
    }
    batch.push(item)
    chars += itemChars
  }
  if (batch.length > 0) batches.push(batch)
  return batches
}
