/** A document to suggest questions about: its title and its headings in reading order. */
export type OutlinedDocument = { title: string; headings: string[] }

const MAX_QUESTIONS = 3
const MAX_HEADING = 80

/** A file name reads better as a title without its extension and separators. */
function readable(title: string): string {
  return title
    .replace(/\.[a-z0-9]{2,5}$/i, '')
    .replace(/[_]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
}

/** A heading as a topic: no Markdown marks, numbering or trailing punctuation. */
function topic(heading: string): string {
  return heading
    .replace(/[#*_`]/g, '')
    .replace(/^\s*(?:\d+(?:\.\d+)*\.?|[IVX]+\.)\s+/, '')
    .replace(/[\s:;,.!?–—-]+$/, '')
    .replace(/\s+/g, ' ')
    .trim()
}

// A passage inside a long table names the table's header row as its last heading ("| | 2019 |
// 2018 |"): column titles, not a topic to ask about.
const TABLE_ROW = /^\|.*\|$/

/** The distinct headings of a document worth asking about (not its title, not too long). */
function topics({ title, headings }: OutlinedDocument, name: string): string[] {
  const seen = new Set([title.toLowerCase(), name.toLowerCase()])
  const result: string[] = []
  for (const heading of headings.filter((h) => !TABLE_ROW.test(h.trim())).map(topic)) {
    const key = heading.toLowerCase()
    if (heading.length < 3 || heading.length > MAX_HEADING || !/\p{L}/u.test(heading)) continue
    if (seen.has(key)) continue
    seen.add(key)
    result.push(heading)
  }
  return result
}

/**
 * Up to three questions about the workspace's documents, from their titles and headings:
 * "What does “<title>” say about <heading>?", taking each document's headings in turn so
 * the questions spread over the library; a document without headings is asked for its key
 * points. None without documents.
 */
export function exampleQuestions(documents: OutlinedDocument[]): string[] {
  const outlines = documents
    .map((document) => ({ name: readable(document.title), document }))
    .filter(({ name }) => name)
    .filter(({ name }, i, all) => all.findIndex((o) => o.name === name) === i)
    .map(({ name, document }) => ({ name, topics: topics(document, name) }))
  const questions: string[] = []
  for (const { name, topics } of outlines)
    if (topics.length === 0) questions.push(`What are the key points of “${name}”?`)
  for (let round = 0; questions.length < MAX_QUESTIONS; round++) {
    const asked = outlines.filter((o) => o.topics[round] !== undefined)
    if (asked.length === 0) break
    for (const { name, topics } of asked)
      questions.push(`What does “${name}” say about ${topics[round]}?`)
  }
  return questions.slice(0, MAX_QUESTIONS)
}
