import { readFileSync } from 'node:fs'

/** A question about one file of the library, with the 1-based pages its answer is on. */
export type LibraryQuestion = {
  id: string
  file: string
  question: string
  evidence: { page: number; text?: string }[]
}

const isQuestion = (q: Partial<LibraryQuestion>): q is LibraryQuestion =>
  typeof q.id === 'string' &&
  typeof q.file === 'string' &&
  typeof q.question === 'string' &&
  q.question.trim() !== '' &&
  Array.isArray(q.evidence) &&
  q.evidence.length > 0 &&
  q.evidence.every((e) => Number.isInteger(e?.page) && e.page >= 1)

/**
 * Reads a JSONL file of `{id, file, question, evidence: [{page, text}]}` (other fields are
 * ignored), failing on the first line that is not one, with its line number.
 */
export function readQuestions(path: string): LibraryQuestion[] {
  const questions: LibraryQuestion[] = []
  readFileSync(path, 'utf8')
    .split('\n')
    .forEach((line, i) => {
      if (!line.trim()) return
      let parsed: Partial<LibraryQuestion>
      try {
        parsed = JSON.parse(line) as Partial<LibraryQuestion>
      } catch {
        throw new Error(`${path}:${i + 1}: not JSON`)
      }
      if (!isQuestion(parsed)) {
        throw new Error(
          `${path}:${i + 1}: expected {id, file, question, evidence: [{page}]} with 1-based pages`,
        )
      }
      questions.push(parsed)
    })
  if (questions.length === 0) throw new Error(`${path}: no questions`)
  return questions
}
