import { describe, expect, it } from 'vitest'
import { extractiveAnswer } from './extractive.ts'
import { NO_ANSWER } from './no-answer.ts'
import { splitSentences } from './sentences.ts'
import { readTableRows } from './table-rows.ts'
import { source } from './test-sources.ts'

const statement = [
  'Zenith Corp balance sheet',
  '| | 2019 | 2018 |',
  '| --- | --- | --- |',
  '| Cash and equivalents | 2,410 | 1,980 |',
  '| Inventories | 1,234 | 1,100 |',
  '',
  'Inventories are stated at the lower of cost and net realizable value.',
].join('\n')

describe('offline answers read a Markdown table row by row', () => {
  it('read each body row with its header row and title, and skip the delimiter row', () => {
    const read = readTableRows(splitSentences(statement)).map(({ sentence, context }) => [
      sentence.text,
      context,
    ])
    expect(read).toEqual([
      ['Zenith Corp balance sheet', ''],
      ['| | 2019 | 2018 |', 'Zenith Corp balance sheet'],
      ['| Cash and equivalents | 2,410 | 1,980 |', 'Zenith Corp balance sheet\n| | 2019 | 2018 |'],
      ['| Inventories | 1,234 | 1,100 |', 'Zenith Corp balance sheet\n| | 2019 | 2018 |'],
      ['Inventories are stated at the lower of cost and net realizable value.', ''],
    ])
  })

  it('take the short lines above a table as its title, not the prose above them', () => {
    const prose = `${'A long line of prose wrapped by the page, about the company and its plans, '.repeat(2)}and more`
    const passage = `${prose}\nZenith Corp\nBalance sheet\n| | 2019 |\n| --- | --- |\n| Inventories | 1,234 |`
    const read = readTableRows(splitSentences(passage))
    expect(read.at(-1)!.context).toBe('Zenith Corp\nBalance sheet\n| | 2019 |')
  })

  it('a passage starting inside a table reads its rows alone', () => {
    const rows = '| Inventories | 1,234 | 1,100 |\n| Total assets | 9,000 | 8,000 |'
    const read = readTableRows(splitSentences(rows))
    expect(read.map((r) => r.context)).toEqual(['', ''])
  })

  it('offer the table whose row holds the measure and whose header holds the year', () => {
    const question = 'What was Zenith’s inventory in 2019?'
    const answer = extractiveAnswer(question, [source(1, statement)])
    expect(answer).toMatch(/^A table on page \d+ matches the question: .*\[1\]\.$/)
    // The same rows without their header and title match only the measure: nothing to offer.
    const bare = '| Cash and equivalents | 2,410 | 1,980 |\n| Inventories | 1,234 | 1,100 |'
    expect(extractiveAnswer(question, [source(1, bare)])).toBe(NO_ANSWER)
  })
})
