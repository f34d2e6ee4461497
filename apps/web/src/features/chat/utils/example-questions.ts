const templates = [
  (title: string) => `What are the key points of “${title}”?`,
  (title: string) => `What does “${title}” conclude?`,
  (title: string) => `Which figures or dates does “${title}” mention?`,
]

/** A file name reads better as a title without its extension and separators. */
function readable(title: string): string {
  return title
    .replace(/\.[a-z0-9]{2,5}$/i, '')
    .replace(/[_]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
}

/** Up to three questions about the given documents, one template each, so they differ. */
export function exampleQuestions(titles: string[]): string[] {
  const names = [...new Set(titles.map(readable).filter(Boolean))]
  if (names.length === 0) return []
  return templates.map((template, index) => template(names[index % names.length]!))
}
