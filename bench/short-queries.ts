// Short queries of common words, as a library's search box gets them: bench:load's phrases and
// the first two, three and four content words of each financebench-dev question (its words
// Postgres's english configuration keeps, in the question's order).
import { join } from 'node:path'
import type { Session } from '../packages/localbase/src/db/database.ts'
import { readQuestions } from '../scripts/eval/library/questions.ts'
import { QUERIES } from './load-setup.ts'

export async function shortQueries(pg: Session, data: string): Promise<string[]> {
  const questions = readQuestions(join(data, 'financebench-dev/questions.jsonl'))
  const { rows } = await pg.query<{ words: string[] }>(
    `select array(select w from regexp_split_to_table(q, '[^[:alnum:]-]+') with ordinality x (w, i)
                  where to_tsvector('english', w) <> ''::tsvector order by i) as words
     from unnest($1::text[]) with ordinality as u (q, n) order by n`,
    [questions.map((q) => q.question)],
  )
  const cut = [2, 3, 4].flatMap((n) => rows.map((r) => r.words.slice(0, n).join(' ')))
  return [...QUERIES, ...cut]
}
