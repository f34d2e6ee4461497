import { describe, expect, it } from 'vitest'
import { extractiveAnswer } from './extractive.ts'
import { source } from './test-sources.ts'

// A statement's table: the question's words sit on different rows (the year in the header,
// the measure in a row label), so the table holds them all only by being long.
const rows = [
  'Three months ended March 31 | Consumer Banking | Corporate Bank | Commercial Banking | Asset Management',
  '2021 | | | |',
  'Noninterest revenue | 3,541 | 10,217 | 847 | 2,612',
  'Net interest income | 9,768 | 3,813 | 1,546 | 823',
  'Total net revenue | 12,457 | 14,605 | 2,393 | 4,142',
  'Provision for credit losses | (3,602) | (331) | (121) | (34)',
  'Noninterest expense | 7,235 | 6,127 | 957 | 2,580',
  'Income before income tax expense | 8,824 | 8,809 | 1,557 | 1,596',
  'Net income | 6,703 | 6,361 | 1,180 | 1,219',
  '2020 | | | |',
  'Noninterest revenue | 3,878 | 7,116 | 556 | 2,528',
  'Net interest income | 9,964 | 3,229 | 1,609 | 798',
  'Total net revenue | 13,842 | 10,345 | 2,165 | 3,326',
  'Provision for credit losses | 5,772 | 1,401 | 1,010 | 94',
  'Noninterest expense | 7,015 | 5,496 | 921 | 2,365',
  'Net income | 744 | 2,524 | 178 | 645',
].join('\n')

describe('offline answers and tables', () => {
  it('offer the table that holds the question’s words across its rows beside matching prose', () => {
    // Marked down for its whole length, as a sentence of that length, the table fell under half the best
    // sentence's score and was left out.
    const sources = [
      source(
        1,
        'Net revenue of the Firm in 2021 was reported by business segment on a managed basis. ' +
          'In 2021 the lowest growth in business volumes came from card services, as spending ' +
          'recovered late.',
      ),
      source(2, `Segment results\n${rows}`),
    ]
    const answer = extractiveAnswer(
      'Which of the business segments had the lowest net revenue in 2021?',
      sources,
    )
    expect(answer).toContain('[1]')
    expect(answer).toMatch(/A table on page 2 matches the question: .* \[2\]/)
  })
})
