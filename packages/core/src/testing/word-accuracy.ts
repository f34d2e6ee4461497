/**
 * Word accuracy of `recognised` against `reference`: 1 − word error rate, where the error rate
 * is the word-level edit distance (substitutions + insertions + deletions) over the reference's
 * word count. Both sides are lower-cased and split on whitespace; punctuation at a word's ends
 * is dropped (a scan's "—" vs "-" or a stray "‘" is not a misread word), and words with no
 * letter or digit left are ignored.
 */
export function wordAccuracy(recognised: string, reference: string): number {
  const ref = words(reference)
  const hyp = words(recognised)
  if (ref.length === 0) return hyp.length === 0 ? 1 : 0
  return 1 - editDistance(hyp, ref) / ref.length
}

export function words(text: string): string[] {
  return text
    .toLowerCase()
    .split(/\s+/)
    .map((word) => word.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, ''))
    .filter((word) => word !== '')
}

function editDistance(a: string[], b: string[]): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j)
  for (let i = 1; i <= a.length; i++) {
    const current = [i]
    for (let j = 1; j <= b.length; j++) {
      const substitute = previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1)
      current.push(Math.min(substitute, previous[j]! + 1, current[j - 1]! + 1))
    }
    previous = current
  }
  return previous[b.length]!
}
