import { encode } from 'gpt-tokenizer/encoding/cl100k_base'

// cl100k_base: the encoding of OpenAI's embedding models (text-embedding-3-*), and half the size
// of o200k's rank file.
const cache = new Map<string, number>()
const CACHE_LIMIT = 50_000

/** Exact token count of a text. */
export function countTokens(text: string): number {
  return encode(text).length
}

/** Token count of a short piece (a word with its leading space), memoised: words repeat a lot. */
export function countWordTokens(word: string): number {
  let count = cache.get(word)
  if (count === undefined) {
    if (cache.size >= CACHE_LIMIT) cache.clear()
    count = encode(word).length
    cache.set(word, count)
  }
  return count
}
