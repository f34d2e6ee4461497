// Deterministic embeddings: a hashed bag of words, L2-normalised, so texts sharing words are
// close in cosine distance and a test can compute the vector the provider would return.

/** FNV-1a, 32 bits. */
function hash(word: string): number {
  let h = 0x811c9dc5
  for (let i = 0; i < word.length; i++) {
    h ^= word.charCodeAt(i)
    h = Math.imul(h, 0x01000193)
  }
  return h >>> 0
}

/** Lower-cased words with a plural "s" dropped, so "ferns" and "fern" land together. */
const words = (text: string) =>
  (text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).map((w) =>
    w.length > 3 && w.endsWith('s') ? w.slice(0, -1) : w,
  )

export function embedText(text: string, dimensions: number): number[] {
  const vector: number[] = Array.from({ length: dimensions }, () => 0)
  for (const word of words(text)) {
    const h = hash(word)
    vector[h % dimensions]! += h & 0x80000000 ? -1 : 1
  }
  const norm = Math.sqrt(vector.reduce((sum, x) => sum + x * x, 0))
  // An empty text still gets a unit vector: a zero vector has no cosine distance.
  if (norm === 0) return vector.map((_, i) => (i === 0 ? 1 : 0))
  return vector.map((x) => x / norm)
}
