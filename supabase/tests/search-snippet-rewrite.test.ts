import { readFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startStack } from './stack.ts'

// 20260101004700_search_faster.sql computes search_snippet's values once each instead of once
// per use, and 20260101007600_search_snippet_decompressed_once.sql decompresses the passage
// once: the snippets must be the ones 20260101003010_snippet_lines.sql made, character for
// character. The landed definition is installed beside the live one and both see each case.
const stack = await startStack()
afterAll(() => stack.stop())

beforeAll(async () => {
  const sql = readFileSync(
    new URL('../migrations/20260101003010_snippet_lines.sql', import.meta.url),
    'utf8',
  )
  const start = sql.indexOf('create or replace function public.search_snippet(')
  const landed = sql.slice(start, sql.indexOf('$$;', start) + 3)
  await stack.db.pg.exec(landed.replace('public.search_snippet(', 'public.search_snippet_landed('))
})

const prose = Array.from({ length: 60 }, (_, i) => `word${i} filler text`).join(' ')
const lines = Array.from({ length: 30 }, (_, i) => `row ${i},value ${i * 7},note`).join('\n')
const cases: [name: string, content: string | null, terms: string[]][] = [
  ['a match at the start', 'Revenue grew in 2023. Costs fell.', ['revenu']],
  ['a match deep in prose', `${prose} revenue rose sharply ${prose}`, ['revenu', 'rose']],
  ['a match in a line of records', `${lines}\nrevenue,42,total\n${lines}`, ['revenu']],
  ['a match near the end', `${prose} the final revenue`, ['revenu']],
  ['no match', prose, ['absent']],
  ['no terms', prose, []],
  ['markup and entities', `${prose} <b>revenue</b> & "costs" > 3`, ['revenu', 'cost']],
  ['multibyte text', `${'é'.repeat(150)} naïve café revenue ${'ü'.repeat(400)}`, ['revenu']],
  [
    'carriage returns',
    `${'line one\r\n'.repeat(20)}revenue here\r\n${'x '.repeat(300)}`,
    ['revenu'],
  ],
  ['a short passage', 'revenue', ['revenu']],
  ['an empty passage', '', ['revenu']],
  ['no passage', null, ['revenu']],
  ['terms unknown', prose, null as unknown as string[]],
  ['a term repeated', `${prose} revenue rose ${prose}`, ['rose', 'revenu', 'rose']],
  ['the later term first', `${prose} revenue ${prose} costs ${prose}`, ['cost', 'revenu']],
]

describe('search_snippet, rewritten', () => {
  it.each(cases)('matches the landed snippet: %s', async (_, content, terms) => {
    const { rows } = await stack.db.pg.query<{ now: string | null; landed: string | null }>(
      `select public.search_snippet($1, $2, public.any_lexeme($2)) as now,
         public.search_snippet_landed($1, $2, public.any_lexeme($2)) as landed`,
      [content, terms],
    )
    expect(rows[0]!.now).toBe(rows[0]!.landed)
    if (content) expect(rows[0]!.now).toBeTruthy()
  })

  // As the chunks table stores them: a long passage compressed (a parameter never is).
  it('matches the landed snippet on passages stored compressed', async () => {
    await stack.db.pg.exec(`create temporary table passages (content text)`)
    const passages = [
      `${prose} revenue rose sharply ${prose} ${prose}`,
      `${lines}\n${lines}\nrevenue,42,total\n${lines}\n${lines}`,
      `revenue first ${prose} ${prose}`,
    ]
    await stack.db.pg.query(`insert into passages select unnest($1::text[])`, [passages])
    const { rows } = await stack.db.pg.query<{ compressed: number; differ: number }>(
      `select count(*) filter (where pg_column_compression(content) is not null)::int
           as compressed,
         count(*) filter (where public.search_snippet(content, t, public.any_lexeme(t))
           is distinct from public.search_snippet_landed(content, t, public.any_lexeme(t)))::int
           as differ
       from passages, (values (array['revenu', 'rose'])) as q (t)`,
    )
    expect(rows[0]).toEqual({ compressed: passages.length, differ: 0 })
  })

  it('marks the match in a deep passage and says what was cut', async () => {
    const { rows } = await stack.db.pg.query<{ snippet: string }>(
      `select public.search_snippet($1, $2, public.any_lexeme($2)) as snippet`,
      [`${prose} revenue rose sharply ${prose}`, ['revenu']],
    )
    expect(rows[0]!.snippet).toMatch(/^… .*<mark>revenue<\/mark> rose.* …$/)
  })
})
