import { describe, expect, it } from 'vitest'
import { itemsToLines, positionedLines, type PdfTextItem } from './pdf-lines.ts'
import { rebuildTables } from './pdf-tables.ts'

/** A pdf.js text item of `size` pt text at x, baseline y; glyphs half an em wide. */
function item(str: string, x: number, y: number, size = 10): PdfTextItem {
  return {
    str,
    transform: [size, 0, 0, size, x, y],
    width: str.length * size * 0.5,
    height: size,
    hasEOL: false,
  }
}

/** A figure right-aligned at `right`. */
const figure = (str: string, right: number, y: number) => item(str, right - str.length * 5, y)

/** An income statement as a filing draws it: "$" at the column's left, amounts right-aligned. */
function statement(top = 700): PdfTextItem[] {
  const rows: [string, string, string][] = [
    ['Product sales', '1,975', '2,255'],
    ['Subscription and other revenues', '4,514', '5,245'],
    ['Total net revenues', '6,489', '7,500'],
    ['Product costs', '656', '719'],
    ['Operating income', '(26)', '71'],
  ]
  const items = [item('2019', 380, top), item('2018', 470, top)]
  rows.forEach(([label, a, b], i) => {
    const y = top - 14 * (i + 1)
    items.push(item(label, 72, y))
    if (i === 0) items.push(item('$', 350, y))
    items.push(figure(a, 400, y))
    if (i === 0) items.push(item('$', 440, y))
    items.push(figure(b, 490, y))
  })
  return items
}

const rebuild = (items: PdfTextItem[]) => rebuildTables(positionedLines(items))
const lettersAndDigits = (text: string) => text.toLowerCase().replace(/[^\p{L}\p{N}]/gu, '')

describe('rebuildTables', () => {
  it('rebuilds columns, right-aligned figures and the year header row as a GFM table', () => {
    const lines = rebuild([item('Revenues for the last two years were:', 72, 730), ...statement()])
    expect(lines).toEqual([
      'Revenues for the last two years were:',
      [
        '',
        '| | 2019 | 2018 |',
        '| --- | --- | --- |',
        '| Product sales | $1,975 | $2,255 |',
        '| Subscription and other revenues | 4,514 | 5,245 |',
        '| Total net revenues | 6,489 | 7,500 |',
        '| Product costs | 656 | 719 |',
        '| Operating income | (26) | 71 |',
        '',
      ].join('\n'),
    ])
  })

  it('keeps the words in content order, so a passage still finds its text layer items', () => {
    const items = statement()
    expect(lettersAndDigits(rebuild(items).join('\n'))).toBe(
      lettersAndDigits(items.map((i) => i.str).join('')),
    )
  })

  it('joins a row label wrapped over two lines and keeps section labels as rows', () => {
    const y = 700
    const lines = rebuild([
      item('2019', 380, y),
      item('2018', 470, y),
      item('Current assets:', 72, y - 14),
      item('Cash', 72, y - 28),
      figure('5,794', 400, y - 28),
      figure('4,225', 490, y - 28),
      item('Accounts receivable, net of', 72, y - 42),
      item('allowances', 80, y - 56),
      figure('848', 400, y - 56),
      figure('1,035', 490, y - 56),
      item('Inventories', 72, y - 70),
      figure('32', 400, y - 70),
      figure('43', 490, y - 70),
    ])
    expect(lines).toEqual([
      [
        '',
        '| | 2019 | 2018 |',
        '| --- | --- | --- |',
        '| Current assets: | | |',
        '| Cash | 5,794 | 4,225 |',
        '| Accounts receivable, net of allowances | 848 | 1,035 |',
        '| Inventories | 32 | 43 |',
        '',
      ].join('\n'),
    ])
  })

  it('joins a label cut after "and", and keeps a run of section titles between rows', () => {
    const lines = rebuild([
      ...statement(),
      item('Equity', 72, 600),
      item('Shareholders’ equity:', 72, 586),
      item('Ordinary shares:', 72, 572),
      item('Issued 1,448 and', 72, 558),
      item('1,489 shares, respectively', 80, 544),
      figure('14', 400, 544),
      figure('15', 490, 544),
    ])
    expect(lines).toHaveLength(1)
    expect(lines[0]).toContain(
      [
        '| Operating income | (26) | 71 |',
        '| Equity | | |',
        '| Shareholders’ equity: | | |',
        '| Ordinary shares: | | |',
        '| Issued 1,448 and 1,489 shares, respectively | 14 | 15 |',
      ].join('\n'),
    )
  })

  it('joins a label cut after a preposition, even where the next line starts in capitals', () => {
    const lines = rebuild([
      ...statement(),
      item('Common stock, 1,197,436,644 shares issued at', 72, 614),
      item('December 31, 2019 and 2018, respectively', 80, 600),
      figure('—', 400, 600),
      figure('—', 490, 600),
    ])
    expect(lines[0]).toContain(
      '| Common stock, 1,197,436,644 shares issued at December 31, 2019 and 2018, respectively | — | — |',
    )
  })

  it('keeps a section label ending in ", net" apart from the row under it', () => {
    const lines = rebuild([
      ...statement(),
      item('Inventories, net', 72, 614),
      item('Raw materials and supplies', 80, 600),
      figure('992', 400, 600),
      figure('1,114', 490, 600),
    ])
    expect(lines[0]).toContain(
      ['| Inventories, net | | |', '| Raw materials and supplies | 992 | 1,114 |'].join('\n'),
    )
  })

  it('keeps a long label line in the table when the row it wraps into follows', () => {
    const long =
      'Common shares, par value, authorized 3.6 billion shares; issued and outstanding 743 million shares as of December 31, 2022 and 761'
    const lines = rebuild([
      item('2019', 380, 700),
      item('2018', 470, 700),
      ...[
        ['Product sales', 686],
        ['Costs', 672],
      ].flatMap(([label, y]) => [
        item(label as string, 72, y as number),
        figure('1', 400, y as number),
        figure('2', 490, y as number),
      ]),
      item('Shareholders’ equity', 72, 658),
      // "$1.66" ends a segment (a currency sign starts one): the label comes in two pieces.
      item('Preferred shares, $1.66', 72, 644, 5),
      item(
        'par value, authorized 20 million shares; issued and outstanding 1,600 shares as of December 31, 2022 and 2021 (Note',
        140,
        644,
        3,
      ),
      item('16)', 72, 630),
      figure('—', 400, 630),
      figure('—', 490, 630),
      item(long, 72, 616, 4),
      item('million shares as of December 31, 2021', 72, 606),
      figure('149', 400, 606),
      figure('153', 490, 606),
    ])
    expect(lines).toHaveLength(1)
    expect(lines[0]).toContain(
      [
        '| Shareholders’ equity | | |',
        '| Preferred shares, $1.66 par value, authorized 20 million shares; issued and outstanding 1,600 shares as of December 31, 2022 and 2021 (Note 16) | — | — |',
        `| ${long} million shares as of December 31, 2021 | 149 | 153 |`,
      ].join('\n'),
    )
  })

  it('leaves a prose paragraph with figures in it as prose', () => {
    const items = [
      item('In 2019 revenue was $6,489 million, up from $7,500 million', 72, 700),
      item('in 2018; operating income fell to 1,607 from 1,988 as costs', 72, 686),
      item('rose. 5.1', 72, 672),
      item('Hyper Parameter Optimization', 110, 672),
      item('The board approved a dividend of 0.37 per share.', 72, 658),
    ]
    expect(rebuild(items)).toEqual(itemsToLines(items))
  })

  it('leaves a two-column page layout as prose, even when its lines interleave', () => {
    const left = [
      'The company sells games on consoles',
      'and computers in 2019 and 2018 and',
      'expects growth of 12% in new markets',
      'where it has 3 studios and 1,200 staff',
    ]
    const right = [
      'Revenue grew as subscriptions rose',
      'while product sales declined by 12%',
      'over the 2 years under review here',
      'with 4 new titles planned for 2020',
    ]
    const items = left.flatMap((text, i) => [
      item(text, 72, 700 - 14 * i),
      item(right[i]!, 320, 700 - 14 * i),
    ])
    expect(rebuild(items)).toEqual(itemsToLines(items))
    expect(rebuild(items).join('\n')).not.toContain('|')
  })

  it('needs three rows of figures: two aligned lines are no table', () => {
    const items = [
      item('Basic', 72, 700),
      figure('1.96', 400, 700),
      item('Diluted', 72, 686),
      figure('1.95', 400, 686),
    ]
    expect(rebuild(items)).toEqual(['Basic 1.96', 'Diluted 1.95'])
  })

  it('starts a new table at a row of column titles under rows of figures', () => {
    // A table by years, then close under it one by dates in fewer columns.
    const byYear = [
      ['Net sales:', '', '', ''],
      ['United States', '14,691.2', '13,496.9', '13,364.5'],
      ['Non-United States', '4,301.6', '4,630.1', '4,262.1'],
      ['Total', '18,992.8', '18,127.0', '17,626.6'],
    ]
    const byDate = [
      ['Cash and cash equivalents:', '', ''],
      ['United States', '46.0', '817.9'],
      ['Non-United States', '523.4', '687.3'],
      ['Total', '569.4', '1,505.2'],
    ]
    const cells = (texts: string[], rights: number[], y: number) => [
      item(texts[0]!, 72, y),
      ...texts.slice(1).flatMap((text, c) => (text ? [figure(text, rights[c]!, y)] : [])),
    ]
    const lines = rebuild([
      ...cells(['In Millions', '2022', '2021', '2020'], [340, 420, 500], 740),
      ...byYear.flatMap((row, r) => cells(row, [340, 420, 500], 726 - 14 * r)),
      ...cells(['In Millions', 'May 29, 2022', 'May 30, 2021'], [420, 500], 662),
      ...byDate.flatMap((row, r) => cells(row, [420, 500], 648 - 14 * r)),
    ])
    expect(lines).toHaveLength(2)
    expect(lines[0]).toContain('| Total | 18,992.8 | 18,127.0 | 17,626.6 |\n')
    expect(lines[1]).toContain(
      [
        '| In Millions | May 29, 2022 | May 30, 2021 |',
        '| --- | --- | --- |',
        '| Cash and cash equivalents: | | |',
        '| United States | 46.0 | 817.9 |',
      ].join('\n'),
    )
  })

  it('starts a new table where the same titles head other columns, the stub dated', () => {
    // A bank's segment results, two tables stacked close: the second's title row starts with
    // the same dated stub, over other segments.
    const rights = [340, 420, 500]
    const table = (segments: string[], top: number) => [
      item('Three months ended March 31,', 72, top),
      ...segments.map((segment, c) => item(segment, rights[c]! - 60, top)),
      ...[
        ['Total net revenue', '12,517', '14,605', '2,393'],
        ['Total noninterest expense', '7,202', '7,104', '969'],
        ['Net income', '6,728', '5,740', '1,168'],
      ].flatMap((row, r) => [
        item(row[0]!, 72, top - 14 * (r + 1)),
        ...row.slice(1).map((text, c) => figure(text, rights[c]!, top - 14 * (r + 1))),
      ]),
    ]
    const lines = rebuild([
      ...table(['Consumer', 'Investment', 'Commercial'], 740),
      ...table(['Wealth', 'Corporate', 'Total'], 680),
    ])
    expect(lines).toHaveLength(2)
    expect(lines[0]).toContain('| Three months ended March 31, | Consumer | Investment |')
    expect(lines[0]).not.toContain('Wealth')
    expect(lines[1]).toContain('| Three months ended March 31, | Wealth | Corporate | Total |')
    expect(lines[1]).toContain('| Net income | 6,728 | 5,740 | 1,168 |')
  })

  it('gives the next table the titles over groups of its columns', () => {
    // Two balance tables by date, the second's columns grouped under titles right above it.
    const rights = [420, 500]
    const table = (date: string, top: number) => [
      item(date, 72, top),
      ...['Loans', 'Deposits'].map((title, c) => figure(title, rights[c]!, top)),
      ...[
        ['Credit card trusts', '10,716', '4,319'],
        ['Multi-seller conduits', '19,642', '9,030'],
        ['Total', '33,509', '15,671'],
      ].flatMap((row, r) => [
        item(row[0]!, 72, top - 14 * (r + 1)),
        ...row.slice(1).map((text, c) => figure(text, rights[c]!, top - 14 * (r + 1))),
      ]),
    ]
    const lines = rebuild([
      ...table('March 31, 2021', 740),
      figure('Assets', 420, 680),
      figure('Liabilities', 500, 680),
      ...table('December 31, 2020', 666),
    ])
    expect(lines).toHaveLength(2)
    expect(lines[0]).not.toContain('Assets')
    expect(lines[1]).toContain('| December 31, 2020 | Assets Loans | Liabilities Deposits |')
  })

  it('starts a new table at titles over groups of columns above a row of years', () => {
    // Two tables of rates by plan and year, a note and a sentence between them: the second's
    // year row alone could be figures, but the plans' titles over it head a table.
    // A title centred over the columns right-aligned at rights[from] to rights[to].
    const over = (title: string, rights: number[], from: number, to: number, y: number) =>
      item(title, (rights[from]! - 25 + rights[to]!) / 2 - title.length * 2.5, y)
    const table = (top: number, rights: number[], rows: string[][]) => [
      over('Pension', rights, 0, rights.length / 2 - 1, top),
      over('Health Care', rights, rights.length / 2, rights.length - 1, top),
      item('At December 31,', 72, top - 14),
      ...['2021', '2020', '2019', '2018']
        .slice(0, rights.length / 2)
        .flatMap((year, c, years) => [
          figure(year, rights[c]!, top - 14),
          figure(year, rights[c + years.length]!, top - 14),
        ]),
      ...rows.flatMap(([label, ...rates], r) => [
        item(label!, 72, top - 28 - 14 * r),
        ...rates.map((rate, c) => figure(rate, rights[c]!, top - 28 - 14 * r)),
      ]),
    ]
    const lines = rebuild([
      ...table(
        740,
        [340, 400, 470, 530],
        [
          ['Discount rate', '3.00%', '2.60%', '2.90%', '2.50%'],
          ['Compensation increases', '3.00%', '3.00%', 'N/A', 'N/A'],
        ],
      ),
      item('N/A - not applicable', 72, 684),
      item('Assumptions for net periodic cost:', 72, 664),
      ...table(
        650,
        [320, 360, 400, 450, 490, 530],
        [
          ['Discount rate', '3.20%', '3.30%', '4.60%', '3.00%', '3.50%', '4.60%'],
          ['Expected return', '6.50', '6.50', '6.80', '4.20', '4.50', '4.30'],
          ['Compensation increases', '3.00', '3.00', '3.00', 'N/A', 'N/A', 'N/A'],
        ],
      ),
    ])
    expect(lines).toHaveLength(4)
    const titles = (years: string[]) =>
      ['Pension', 'Health Care'].flatMap((plan) => years.map((year) => ` ${plan} ${year} |`))
    expect(lines[0]).toContain(`| At December 31, |${titles(['2021', '2020']).join('')}`)
    expect(lines[0]).toContain('| Discount rate | 3.00% | 2.60% | 2.90% | 2.50% |')
    expect(lines.slice(1, 3)).toEqual([
      'N/A - not applicable',
      'Assumptions for net periodic cost:',
    ])
    expect(lines[3]).toContain(`| At December 31, |${titles(['2021', '2020', '2019']).join('')}`)
    expect(lines[3]).toContain('| Expected return | 6.50 | 6.50 | 6.80 | 4.20 | 4.50 | 4.30 |')
  })

  it('keeps a row of figures the figure pattern misses ("(2)pts") in its table', () => {
    const lines = rebuild([
      item('Fiscal 2022 vs. 2021', 72, 740),
      item('CPW', 330, 740),
      item('HDJ', 410, 740),
      ...[
        ['Volume growth', '(3) pts', '8 pts'],
        ['Price and mix', '2 pts', '1 pt'],
        ['Foreign currency exchange', '(2)pts', '(8)pts'],
        ['Net sales growth', '(3) pts', '1 pt'],
      ].flatMap(([label, a, b], r) => [
        item(label!, 72, 726 - 14 * r),
        figure(a!, 350, 726 - 14 * r),
        figure(b!, 430, 726 - 14 * r),
      ]),
    ])
    expect(lines).toHaveLength(1)
    expect(lines[0]).toContain('| Foreign currency exchange | (2)pts | (8)pts |')
  })

  it('gives a column only some rows fill its own cells, not its neighbour’s', () => {
    // Ticks under five titles; most rows tick two columns, so those decide the columns at first.
    const ticks: [string, number[]][] = [
      ['SET CURRENT DEGREE', [0, 2]],
      ['CHGQRYA command', [0, 2]],
      ['STRDBMON commands for the user', [0, 2, 3, 4]],
      ['QUSRJOBI() API format 900', [0, 2, 3]],
      ['Visual Explain within scripts', [0, 2, 3, 4]],
      ['DUMP PLAN CACHE procedure', [0, 2]],
    ]
    const lines = rebuild(
      ticks.flatMap(([label, columns], r) => [
        item(label, 72, 700 - 14 * r),
        ...columns.map((c) => item('X', 380 + 30 * c, 700 - 14 * r)),
      ]),
    )
    expect(lines).toHaveLength(1)
    expect(lines[0]).toContain(
      [
        '| CHGQRYA command | X | X | | |',
        '| STRDBMON commands for the user | X | X | X | X |',
        '| QUSRJOBI() API format 900 | X | X | X | |',
      ].join('\n'),
    )
  })

  it('keeps a footnote mark beside its figure rather than making it a column', () => {
    const rows: [string, string, string, string?][] = [
      ['Noninterest revenue', '$382', '$19,377', '(b)'],
      ['Net interest income', '(855)', '12,889'],
      ['Total net revenue', '(473)', '32,266'],
      ['Income tax expense', '(785)', '3,397', '(b)'],
      ['Net income', '$(580)', '$14,300'],
    ]
    const lines = rebuild(
      rows.flatMap(([label, a, b, mark], r) => [
        item(label, 72, 700 - 14 * r),
        figure(a, 400, 700 - 14 * r),
        figure(b, 490, 700 - 14 * r),
        ...(mark ? [item(mark, 500, 700 - 14 * r)] : []),
      ]),
    )
    expect(lines[0]).toContain('| Noninterest revenue | $382 | $19,377 (b) |')
  })

  it('escapes a pipe inside a cell', () => {
    const lines = rebuild([
      item('A | B', 72, 700),
      figure('1', 400, 700),
      item('C', 72, 686),
      figure('2', 400, 686),
      item('D', 72, 672),
      figure('3', 400, 672),
    ])
    expect(lines.join('\n')).toContain('| A \\| B | 1 |')
  })
})
