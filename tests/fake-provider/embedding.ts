// Deterministic embeddings: a hashed bag of words, so texts sharing words are close in cosine
// distance and a test can compute the vector the provider would return. Like real embeddings,
// every vector also shares a common direction and has a little text-specific spread: vectors
// of unrelated texts that were exactly orthogonal (all at one distance) would make an HNSW
// graph degenerate, which real models never do.

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

/** A deterministic number in [-1, 1) for (seed, i): murmur3's finaliser, well mixed. */
function noise(seed: number, i: number): number {
  let h = (seed ^ Math.imul(i + 1, 0x9e3779b1)) >>> 0
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b)
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35)
  h = (h ^ (h >>> 16)) >>> 0
  return h / 2 ** 31 - 1
}

export function embedText(text: string, dimensions: number): number[] {
  const bag = words(text)
  const seed = hash(bag.join(' '))
  // The spread's total length is about 0.3 whatever the dimension.
  const spread = Math.sqrt(0.27 / dimensions)
  const vector = Array.from({ length: dimensions }, (_, i) => spread * noise(seed, i))
  vector[0]! += 1
  for (const word of bag) {
    const h = hash(word)
    vector[h % dimensions]! += h & 0x80000000 ? -1 : 1
  }
  const norm = Math.sqrt(vector.reduce((sum, x) => sum + x * x, 0))
  return vector.map((x) => x / norm)
}
