import { encode } from 'gpt-tokenizer/encoding/cl100k_base'

// cl100k_base: the encoding of OpenAI's embedding models (text-embedding-3-*), and half the size
// of o200k's rank file.
const cache = new Map<string, number>()
const CACHE_LIMIT = 50_000

/**
 * BPE merges within one pre-token piece in time quadratic in its length, and the pre-tokenizer
 * keeps a run of whitespace, of letters or of punctuation whole: 2 MB of spaces took minutes.
 * Runs longer than this are counted in slices of this length (a few tokens more at each cut,
 * which only errs towards smaller chunks).
 */
const MAX_RUN = 256
// Each alternative starts only where its run starts, so a short run is scanned once, not once
// for every character in it.
const LONG_RUN = new RegExp(
  [String.raw`\s`, String.raw`\p{L}`, String.raw`[^\s\p{L}\p{N}]`]
    .map((c) => `(?<!${c})${c}{${MAX_RUN + 1},}`)
    .join('|'),
  'gu',
)

/** Token count of a text: exact unless it holds a run of over MAX_RUN alike characters. */
export function countTokens(text: string): number {
  if (!mayHoldLongRun(text)) return encode(text).length
  LONG_RUN.lastIndex = 0
  let count = 0
  let done = 0
  for (let run = LONG_RUN.exec(text); run; run = LONG_RUN.exec(text)) {
    let cut = codePointBoundary(text, run.index + MAX_RUN)
    count += encode(text.slice(done, cut)).length
    for (const end = run.index + run[0].length; cut < end;) {
      const next = codePointBoundary(text, Math.min(cut + MAX_RUN, end))
      // Slices of one run repeat: memoise them.
      count += countWordTokens(text.slice(cut, next))
      cut = next
    }
    done = cut
  }
  return count + encode(text.slice(done)).length
}

/**
 * Whether the text may hold a run LONG_RUN finds: over MAX_RUN characters in a row that are all
 * whitespace, all letters, or all neither (nor digits). A character outside ASCII counts as
 * each kind, so `false` is sure and spares the regex, whose scan (three lookbehinds at every
 * character) was a quarter of chunking's CPU on financial filings; `true` is for it to check.
 */
export function mayHoldLongRun(text: string): boolean {
  if (text.length <= MAX_RUN) return false
  let spaces = 0
  let letters = 0
  let others = 0
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    const lower = c | 32
    if (c >= 128) {
      spaces++
      letters++
      others++
    } else if (c === 32 || (c >= 9 && c <= 13)) {
      spaces++
      letters = others = 0
    } else if (lower >= 97 && lower <= 122) {
      letters++
      spaces = others = 0
    } else if (c >= 48 && c <= 57) spaces = letters = others = 0
    else {
      others++
      spaces = letters = 0
    }
    if (spaces > MAX_RUN || letters > MAX_RUN || others > MAX_RUN) return true
  }
  return false
}

/** Token count of a short piece (a word with its leading space), memoised: words repeat a lot. */
export function countWordTokens(word: string): number {
  if (word.length > MAX_RUN) return countTokens(word)
  let count = cache.get(word)
  if (count === undefined) {
    if (cache.size >= CACHE_LIMIT) cache.clear()
    count = encode(word).length
    cache.set(word, count)
  }
  return count
}

/** `at`, or one past it when it would split a surrogate pair. */
function codePointBoundary(text: string, at: number): number {
  return /[\udc00-\udfff]/.test(text[at] ?? '') ? at + 1 : at
}
