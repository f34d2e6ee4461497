/**
 * Word-multiset similarity (Dice coefficient over lower-cased letter/digit runs): 1 when both
 * texts use the same words the same number of times, whatever the Markdown punctuation or order.
 */
export function wordSimilarity(a: string, b: string): number {
  const countsA = wordCounts(a)
  const countsB = wordCounts(b)
  let shared = 0
  for (const [word, count] of countsA) shared += Math.min(count, countsB.get(word) ?? 0)
  const total = sum(countsA) + sum(countsB)
  return total === 0 ? 1 : (2 * shared) / total
}

function wordCounts(text: string): Map<string, number> {
  const counts = new Map<string, number>()
  for (const word of text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
    counts.set(word, (counts.get(word) ?? 0) + 1)
  }
  return counts
}

function sum(counts: Map<string, number>): number {
  let total = 0
  for (const count of counts.values()) total += count
  return total
}
