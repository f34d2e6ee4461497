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
      [
        '| | 2019 | 2018 |\n| Cash and equivalents | 2,410 | 1,980 |\n| Inventories | 1,234 | 1,100 |',
        'Zenith Corp balance sheet',
      ],
      ['Inventories are stated at the lower of cost and net realizable value.', ''],
    ])
  })

  it('take the short lines above a table as its title, not the prose above them', () => {
    const prose = `${'A long line of prose wrapped by the page, about the company and its plans, '.repeat(2)}and more`
    const passage = `${prose}\nZenith Corp\nBalance sheet\n| | 2019 |\n| --- | --- |\n| Inventories | 1,234 |`
    const read = readTableRows(splitSentences(passage))
    const row = read.find((r) => r.sentence.text === '| Inventories | 1,234 |')
    expect(row!.context).toBe('Zenith Corp\nBalance sheet\n| | 2019 |')
  })

  it('a passage starting inside a table reads its rows alone', () => {
    const rows = '| Inventories | 1,234 | 1,100 |\n| Total assets | 9,000 | 8,000 |'
    const read = readTableRows(splitSentences(rows))
    expect(read.map((r) => r.context)).toEqual(['', '', ''])
    expect(read.at(-1)!.sentence).toEqual({ text: rows, start: 0, end: rows.length })
  })

  it('a passage starting inside a table reads its rows with the title and header of its heading path', () => {
    const rows = '| Inventories | 1,234 | 1,100 |\n| Total assets | 9,000 | 8,000 |'
    const path = ['Notes', 'Zenith Corp balance sheet', '| | 2019 | 2018 |']
    const read = readTableRows(splitSentences(rows), path)
    expect(read.map((r) => r.context)).toEqual([
      'Zenith Corp balance sheet\n| | 2019 | 2018 |',
      'Zenith Corp balance sheet\n| | 2019 | 2018 |',
      'Zenith Corp balance sheet\n| | 2019 | 2018 |',
    ])
    // A heading path of headings only says nothing about the rows' columns.
    expect(readTableRows(splitSentences(rows), ['Notes']).map((r) => r.context)).toEqual([
      '',
      '',
      '',
    ])
    const question = 'What was Zenith’s inventory in 2019?'
    const answer = extractiveAnswer(question, [{ ...source(1, rows), heading_path: path }])
    expect(answer).toMatch(/^A table on page \d+ matches the question: .*\[1\]\.$/)
  })

  it('offer the table whose row holds the measure and whose header holds the year', () => {
    const question = 'What was Zenith’s inventory in 2019?'
    const answer = extractiveAnswer(question, [source(1, statement)])
    expect(answer).toMatch(/^A table on page \d+ matches the question: .*\[1\]\.$/)
    // The same rows without their header and title match only the measure: nothing to offer.
    const bare = '| Cash and equivalents | 2,410 | 1,980 |\n| Inventories | 1,234 | 1,100 |'
    expect(extractiveAnswer(question, [source(1, bare)])).toBe(NO_ANSWER)
  })

  it('offer a table whose rows together answer a question that no row answers alone', () => {
    // A page's balance sheet continued from the page before: no title, no header row.
    const rows = [
      '| Receivables | 1,679.7 | 1,684.2 |',
      '| Inventories | 1,559.3 | 1,642.2 |',
      '| Accounts payable | 2,854.1 | 2,746.2 |',
    ].join('\n')
    const notes =
      'Working capital is managed through the cycle of purchases and collections, reviewed ' +
      'each quarter against the averages of the two prior years; the conversion into cash is ' +
      'computed in millions and rounded to one or two decimal places.'
    const question =
      'Compute the cash conversion cycle from the average receivables, inventories and ' +
      'accounts payable of the two years, rounding to two decimal places.'
    const answer = extractiveAnswer(question, [source(1, rows), source(2, notes)])
    expect(answer).toMatch(/A table on page \d+ matches the question: .*\[1\]\./)
  })
})
