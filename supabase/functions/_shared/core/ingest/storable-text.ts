// Generated from packages/core/src/ingest/storable-text.ts by `npm run sync:core`: edit that file, not this one.
// A lone UTF-16 surrogate (half of a pair, from a broken font map or a cut string) or a NUL.
// Postgres cannot store either: text refuses NUL, and JSON refuses an unpaired \uD8xx escape.
const unstorable = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]|\0/g

/**
 * The text with every lone surrogate and NUL replaced by U+FFFD. Each is one UTF-16 unit, as
 * is U+FFFD, so the length and every character offset (pages, chunks, citations) stay put.
 */
export function storableText(text: string): string {
  return text.replace(unstorable, '\uFFFD')
}
