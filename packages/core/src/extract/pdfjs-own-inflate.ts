/**
 * Has pdf.js inflate compressed PDF streams with its own synchronous code rather than through
 * the platform's DecompressionStream, by removing that global from this thread. pdf.js looks
 * the global up itself (it has no option for this) and, finding it, decodes each Flate stream
 * of a page asynchronously: a stream pipeline and a zlib context per content stream, which on
 * the many small streams of text extraction costs more than the inflate itself. Without it the
 * output is byte for byte the same (bench:extract-output, 4,430 pages) and extraction takes
 * ~10% less CPU on the FinanceBench filings (bench:extract, Node 24).
 * Only for threads that do nothing but extract (the importer's extraction threads, and
 * bench:extract, which measures them): nothing else there uses DecompressionStream.
 */
export function usePdfjsOwnInflate(): void {
  delete (globalThis as { DecompressionStream?: unknown }).DecompressionStream
}
