const WINDOW = 32

/** Letters and digits only, lower-cased: spacing, hyphenation and punctuation never decide. */
function normalize(text: string) {
  return text.toLowerCase().replace(/[^\p{L}\p{N}]/gu, '')
}

/**
 * Which of a PDF page's text items hold a passage (a chunk's text, which may start on an
 * earlier page or end on a later one). The passage is aligned to the page by the first of its
 * windows found there, then every item the aligned span overlaps is returned, in order.
 * Extraction repaired hyphenation and dropped running headers, so matching ignores everything
 * but letters and digits. No window found: no items (the caller shows the passage beside).
 */
export function passageItems(items: string[], passage: string): number[] {
  const needle = normalize(passage)
  if (!needle) return []
  let stream = ''
  const owner: number[] = []
  items.forEach((item, index) => {
    const text = normalize(item)
    stream += text
    for (let i = 0; i < text.length; i++) owner.push(index)
  })
  const width = Math.min(WINDOW, needle.length)
  const offsets: number[] = []
  for (let k = 0; k + width <= needle.length; k += width) offsets.push(k)
  offsets.push(needle.length - width)
  for (const k of offsets) {
    const found = stream.indexOf(needle.slice(k, k + width))
    if (found < 0) continue
    const from = Math.max(0, found - k)
    const to = Math.min(stream.length, found - k + needle.length)
    return [...new Set(owner.slice(from, to))]
  }
  return []
}
