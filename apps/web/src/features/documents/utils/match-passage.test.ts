import { describe, expect, it } from 'vitest'
import { passageItems } from './match-passage'

const page = [
  'Annual Report 2024', // a running header, dropped by extraction
  'Revenue grew by twelve per cent, driven by',
  'strong demand in the north-',
  'ern markets.',
  'Costs were flat.',
  'Outlook: we expect further growth in the coming',
]

describe('passageItems', () => {
  it('finds a passage across items despite hyphenation and spacing', () => {
    expect(
      passageItems(
        page,
        'Revenue grew by twelve per cent, driven by strong demand in the northern markets.',
      ),
    ).toEqual([1, 2, 3])
  })

  it('marks the page’s end of a passage that continues on the next page', () => {
    expect(
      passageItems(
        page,
        'Costs were flat. Outlook: we expect further growth in the coming year, as orders rose.',
      ),
    ).toEqual([4, 5])
  })

  it('marks the page’s start of a passage that began on the previous page', () => {
    const next = ['year, as orders rose.', 'Dividends were raised.', 'Other items.']
    expect(
      passageItems(
        next,
        'we expect further growth in the coming year, as orders rose. Dividends were raised.',
      ),
    ).toEqual([0, 1])
  })

  it('returns nothing when the passage is not on the page', () => {
    expect(
      passageItems(page, 'Entirely different words about herbarium specimens and their care.'),
    ).toEqual([])
    expect(passageItems(page, '  ')).toEqual([])
  })

  it('finds a passage of a PDF table rebuilt as Markdown in the page’s cell items', () => {
    // A statement's text items as pdf.js gives them (blank items fill the gutters); extraction
    // rebuilt them as a GFM table, whose pipes and delimiter row must not matter.
    const statement = [
      '2019',
      ' ',
      '2018',
      'Product sales',
      ' ',
      '$',
      ' ',
      '1,975',
      ' ',
      '$',
      ' ',
      '2,255',
      'Product costs',
      ' ',
      '656',
      ' ',
      '719',
      'Operating income',
      ' ',
      '(26)',
      ' ',
      '71',
      'Net income',
      ' ',
      '$',
      ' ',
      '1,503',
      ' ',
      '$',
      ' ',
      '1,848',
    ]
    const passage = [
      '| Product costs | 656 | 719 |',
      '| Operating income | (26) | 71 |',
      '| Net income | $ 1,503 | $ 1,848 |',
    ].join('\n')
    expect(passageItems(statement, passage)).toEqual([12, 14, 16, 17, 19, 21, 22, 26, 30])
    const table = `| | 2019 | 2018 |\n| --- | --- | --- |\n| Product sales | $ 1,975 | $ 2,255 |\n${passage}`
    const items = passageItems(statement, table)
    expect([items.at(0), items.at(-1), items.length]).toEqual([0, 30, 14])
  })
})
