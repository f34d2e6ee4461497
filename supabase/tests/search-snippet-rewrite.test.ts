import { readFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startStack } from './stack.ts'

// 20260101004700_search_faster.sql computes search_snippet's values once each instead of once
// per use: the snippets must be the ones 20260101003010_snippet_lines.sql made, character for
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

  it('marks the match in a deep passage and says what was cut', async () => {
    const { rows } = await stack.db.pg.query<{ snippet: string }>(
      `select public.search_snippet($1, $2, public.any_lexeme($2)) as snippet`,
      [`${prose} revenue rose sharply ${prose}`, ['revenu']],
    )
    expect(rows[0]!.snippet).toMatch(/^… .*<mark>revenue<\/mark> rose.* …$/)
  })
})
