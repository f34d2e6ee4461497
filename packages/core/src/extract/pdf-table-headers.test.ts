import { describe, expect, it } from 'vitest'
import { positionedLines, type PdfTextItem } from './pdf-lines.ts'
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

/** Text centred on x. */
const centred = (str: string, x: number, y: number) => item(str, x - str.length * 2.5, y)
/** A figure right-aligned at `right`. */
const figure = (str: string, right: number, y: number) => item(str, right - str.length * 5, y)

const rebuild = (items: PdfTextItem[]) => rebuildTables(positionedLines(items))

/** Rows of a label and figures right-aligned at `rights`, from baseline `top` down. */
function rows(top: number, rights: number[], data: string[][]): PdfTextItem[] {
  return data.flatMap(([label, ...figures], r) => [
    item(label!, 72, top - 14 * r),
    ...figures.map((text, c) => figure(text, rights[c]!, top - 14 * r)),
  ])
}

describe('column titles stacked above a table', () => {
  it('joins dates set over two lines, and keeps the section labels between them and the rows', () => {
    // As a balance sheet's producer draws it: each column's date, then its year, then labels.
    const lines = rebuild([
      item('Consolidated Balance Sheets', 200, 760),
      centred('May 26,', 380, 740),
      centred('2019', 380, 728),
      centred('May 27,', 470, 740),
      centred('2018', 470, 728),
      item('ASSETS', 72, 714),
      item('Current assets:', 72, 700),
      ...rows(
        686,
        [400, 490],
        [
          ['Cash', '450.0', '399.0'],
          ['Receivables', '1,679.7', '1,684.2'],
          ['Inventories', '1,559.3', '1,642.2'],
        ],
      ),
    ])
    expect(lines).toEqual([
      'Consolidated Balance Sheets',
      [
        '',
        '| | May 26, 2019 | May 27, 2018 |',
        '| --- | --- | --- |',
        '| ASSETS | | |',
        '| Current assets: | | |',
        '| Cash | 450.0 | 399.0 |',
        '| Receivables | 1,679.7 | 1,684.2 |',
        '| Inventories | 1,559.3 | 1,642.2 |',
        '',
      ].join('\n'),
    ])
  })

  it('repeats a group title over its columns; a title over all of them is the caption above', () => {
    const rights = [300, 360, 440, 500]
    const lines = rebuild([
      ...rows(680, rights, [
        ['Sales', '25,530', '100.0', '24,020', '100.0'],
        ['Cost of sales', '8,212', '32.2', '7,919', '33.0'],
        ['Gross profit', '17,318', '67.8', '16,101', '67.0'],
      ]),
      // Titles drawn after the table, as some producers do.
      item('Amount', 270, 694),
      item('Percent', 325, 694),
      item('Amount', 410, 694),
      item('Percent', 465, 694),
      centred('2023', 320, 708),
      centred('2022', 460, 708),
      centred('SECOND QUARTER', 390, 722),
      item('The quarter was strong.', 72, 640),
    ])
    // Said once above the table (where the content stream drew it after), not in each column.
    expect(lines).toEqual([
      'SECOND QUARTER',
      [
        '',
        '| | 2023 Amount | 2023 Percent | 2022 Amount | 2022 Percent |',
        '| --- | --- | --- | --- | --- |',
        '| Sales | 25,530 | 100.0 | 24,020 | 100.0 |',
        '| Cost of sales | 8,212 | 32.2 | 7,919 | 33.0 |',
        '| Gross profit | 17,318 | 67.8 | 16,101 | 67.0 |',
        '',
      ].join('\n'),
      'The quarter was strong.',
    ])
  })

  it('gives a lone title only the column it stands over, and a units note to the labels', () => {
    const lines = rebuild([
      item('(in millions)', 400, 722),
      centred('Change', 490, 708),
      ...rows(
        694,
        [330, 410, 500],
        [
          ['Revenue', '2021', '2020', 'in %'],
          ['Net sales', '6,489', '7,500', '(13)'],
          ['Costs', '656', '719', '(9)'],
          ['Net income', '1,503', '1,813', '(17)'],
        ],
      ),
    ])
    expect(lines).toHaveLength(1)
    expect(lines[0]).toContain('| (in millions) Revenue | 2021 | 2020 | Change in % |')
  })

  it('leaves prose, a centred page title and another page column above a table as they were', () => {
    const prose = 'The following table shows revenue by segment for the last two fiscal years:'
    const lines = rebuild([
      item(prose, 72, 750),
      centred('Results of Operations by Segment', 330, 736),
      item('Side note', 10, 722),
      ...rows(
        708,
        [400, 490],
        [
          ['Domestic', '1,975', '2,255'],
          ['International', '4,514', '5,245'],
          ['Total', '6,489', '7,500'],
        ],
      ),
    ])
    expect(lines.slice(0, 3)).toEqual([prose, 'Results of Operations by Segment', 'Side note'])
    expect(lines[3]).toContain('| | | |')
  })

  it('takes titles over a text table whose first row repeats the rows below (a grid of ticks)', () => {
    const ticks = ['Persons with disabilities', 'Children', 'Women', 'The elderly', 'Migrants']
    const lines = rebuild([
      centred('State funded', 400, 744),
      centred('legal aid', 400, 732),
      centred('CSOs', 470, 744),
      ...ticks.flatMap((label, r) => [
        item('y', 60, 718 - 14 * r),
        item(label, 80, 718 - 14 * r),
        item('*', 398, 718 - 14 * r),
        item('*', 468, 718 - 14 * r),
      ]),
    ])
    expect(lines).toHaveLength(1)
    expect(lines[0]).toContain(
      [
        '| | | State funded legal aid | CSOs |',
        '| --- | --- | --- | --- |',
        '| y | Persons with disabilities | * | * |',
      ].join('\n'),
    )
  })
  it('completes a title row the content stream split, on the first row of the table', () => {
    const lines = rebuild([
      centred('Activision', 380, 722),
      centred('Non-', 470, 736),
      centred('reportable', 470, 722),
      ...rows(
        722,
        [400, 490, 560],
        [
          ['', '', '', 'Total'],
          ['Console', '1,783', '137', '1,920'],
          ['PC', '298', '1,346', '1,718'],
          ['Mobile', '103', '188', '2,203'],
        ],
      ).filter((item) => item.str !== ''),
    ])
    expect(lines).toHaveLength(1)
    expect(lines[0]).toContain('| | Activision | Non- reportable | Total |')
  })

  it('joins a row label wrapped over three lines, under titles', () => {
    const lines = rebuild([
      centred('March 31, 2021', 385, 728),
      centred('December 31, 2020', 475, 728),
      ...rows(
        700,
        [400, 490],
        [
          ['Tax-oriented investments (e.g.,'],
          ['affordable housing and alternative'],
          ['energy investments)', '19.5', '20.0'],
          ['Other', '1.5', '2.0'],
          ['Total', '21.0', '22.0'],
        ],
      ),
    ])
    expect(lines).toHaveLength(1)
    expect(lines[0]).toContain('| | March 31, 2021 | December 31, 2020 |')
    expect(lines[0]).toContain(
      '| Tax-oriented investments (e.g., affordable housing and alternative energy investments) | 19.5 | 20.0 |',
    )
  })
  it('makes a lone title over every column the caption, and keeps a footnote mark to its column', () => {
    const lines = rebuild([
      centred('Tax expense (benefit)', 445, 736),
      centred('Hedges', 490, 724),
      item('(a)', 512, 730),
      ...rows(
        710,
        [400, 450, 500],
        [
          ['', '2022', '2021', '2020'],
          ['Securities', '(27)', '(13)', '9'],
          ['Currency', '75', '51', '(62)'],
          ['Pension', '27', '52', '(28)'],
        ],
      ).filter((item) => item.str !== ''),
    ])
    expect(lines).toHaveLength(2)
    expect(lines[0]).toBe('Tax expense (benefit)')
    expect(lines[1]).toContain('| | 2022 | 2021 | (a) Hedges 2020 |')
  })
  it('spreads a lone title over the run of columns it is centred on', () => {
    const rights = [300, 360, 420, 480, 560]
    const lines = rebuild([
      centred('Quarter', 378, 736),
      ...['1st', '2nd', '3rd', '4th', 'Fiscal Year'].map((text, c) =>
        figure(text, rights[c]!, 722),
      ),
      ...rows(694, rights, [
        ['Revenue', '9,109', '9,379', '9,590', '14,801', '42,879'],
        ['Gross profit', '2,125', '2,229', '2,324', '3,283', '9,961'],
        ['Net earnings', '208', '244', '277', '735', '1,464'],
      ]),
    ])
    expect(lines).toHaveLength(1)
    expect(lines[0]).toContain(
      '| | Quarter 1st | Quarter 2nd | Quarter 3rd | Quarter 4th | Fiscal Year |',
    )
  })
  it('gives a short title in a row of group titles the group it is centred over', () => {
    // "Other" and "Total" fit within their groups' middle columns, but "Asset Management"
    // beside them heads three columns: they head three as well.
    const rights = [220, 270, 310, 380, 430, 470, 540, 590, 630]
    const lines = rebuild([
      centred('Asset Management', 250, 736),
      centred('Other', 410, 736),
      centred('Total', 570, 736),
      ...rows(722, rights, [
        ['', '2021', '2020', 'Change', '2021', '2020', 'Change', '2021', '2020', 'Change'],
        ['Net revenue', '4,077', '3,389', '20', '(473)', '1,166', 'NM', '33,119', '29,010', '14'],
        ['Net income', '1,244', '669', '86', '(580)', '(1,125)', '(364)', '14,300', '2,865', '399'],
      ]).filter((item) => item.str !== ''),
    ])
    expect(lines).toHaveLength(1)
    expect(lines[0]).toContain(
      [
        '| |',
        ...['Asset Management', 'Other', 'Total'].flatMap((group) =>
          ['2021', '2020', 'Change'].map((title) => ` ${group} ${title} |`),
        ),
      ].join(''),
    )
  })

  it('gives the first line of a wrapped title repeated in each group its own column only', () => {
    // "Percent of" over each year's "Total", flush right with it: not a title of the year's
    // columns, though the first is as centred over the three columns nearest it.
    const rights = [289, 347, 411, 467]
    const lines = rebuild([
      centred('2019', 293, 734),
      centred('2018', 414, 734),
      ...[347, 467].map((right) => item('Percent of', right - 37.5, 714, 7.5)),
      item('In Millions', 72, 702),
      ...['Dollars', 'Total', 'Dollars', 'Total'].map((title, c) => figure(title, rights[c]!, 702)),
      ...rows(688, rights, [
        ['Net sales', '$ 16,865.2', '100%', '$ 15,740.4', '100%'],
        ['Pet', '1,430.9', '8', '-', '-'],
        ['Other', '15,434.3', '92', '15,740.4', '100'],
      ]),
    ])
    expect(lines).toHaveLength(1)
    expect(lines[0]).toContain(
      '| In Millions | 2019 Dollars | 2019 Percent of Total | 2018 Dollars | 2018 Percent of Total |',
    )
  })

  it('joins a row’s only title to the middle column’s title it tops, unless it is a caption', () => {
    // Three lines of the middle column's title over two of the others', each line centred:
    // its first line is centred over the whole table as well, yet no caption. "Fiscal Year"
    // over years, as centred, is; so is a title wider than the middle column.
    const table = (top: string, under: string[][]) =>
      rebuild([
        centred(top, 450, 750),
        ...under.flatMap((line, r) =>
          line.map((title, c) => centred(title, 350 + 100 * c, 736 - 14 * r)),
        ),
        ...rows(
          722 - 14 * (under.length - 1),
          [375, 475, 575],
          [
            ['Customer relationships', '1,949.2', '(918.1)', '1,031.1'],
            ['Other', '282.4', '(121.7)', '160.7'],
            ['Total', '2,231.6', '(1,039.8)', '1,191.8'],
          ],
        ),
      ])
    const wrapped = table('Accumulated', [
      ['Gross Carrying', 'Amortization and', 'Net Carrying'],
      ['Amount', 'Impairment', 'Amount'],
    ])
    expect(wrapped).toHaveLength(1)
    expect(wrapped[0]).toContain(
      '| | Gross Carrying Amount | Accumulated Amortization and Impairment | Net Carrying Amount |',
    )
    const caption = table('Fiscal Year', [['2023', '2022', '2021']])
    expect(caption[0]).toBe('Fiscal Year')
    expect(caption[1]).toContain('| | 2023 | 2022 | 2021 |')
    const wide = table('Payments due by Period', [['Total', 'Next 12 Months', 'Later']])
    expect(wide[0]).toBe('Payments due by Period')
    expect(wide[1]).toContain('| | Total | Next 12 Months | Later |')
  })

  it('leaves a heading over only some of the titled groups as prose', () => {
    const lines = rebuild([
      centred('Sales Reconciliation', 320, 750),
      centred('SECOND QUARTER', 320, 736),
      centred('SIX MONTHS', 460, 736),
      ...rows(
        722,
        [300, 360, 440, 500],
        [
          ['', '2023', '2022', '2023', '2022'],
          ['U.S.', '7,818', '7,159', '14,841', '13,791'],
          ['International', '5,913', '6,158', '12,303', '12,395'],
          ['Worldwide', '13,731', '13,317', '27,144', '26,186'],
        ],
      ).filter((item) => item.str !== ''),
    ])
    expect(lines[0]).toBe('Sales Reconciliation')
    expect(lines[1]).toContain(
      '| | SECOND QUARTER 2023 | SECOND QUARTER 2022 | SIX MONTHS 2023 | SIX MONTHS 2022 |',
    )
  })
})

describe('the row-label column’s own title', () => {
  it('keeps a stub title set over two lines among the column titles out of the rows', () => {
    // As a quarterly-data note draws it: group titles, the stub's two lines between the title
    // rows (each drawn on its own), then the years and the rows.
    const rights = [300, 350, 420, 470]
    const lines = rebuild([
      centred('First Quarter', 325, 750),
      centred('Second Quarter', 445, 750),
      item('In Millions, Except Per', 72, 739),
      item('Share Amounts', 72, 729),
      centred('Fiscal Year', 325, 738),
      centred('Fiscal Year', 445, 738),
      ...rights.map((right, c) => figure(c % 2 ? '2018' : '2019', right, 725)),
      ...rows(712, rights, [
        ['Net sales', '4,094.0', '3,769.2', '4,411.2', '4,198.7'],
        ['Gross margin', '1,342.8', '1,313.3', '1,509.7', '1,446.2'],
        ['Net earnings', '392.3', '404.7', '343.4', '430.5'],
      ]),
    ])
    expect(lines).toHaveLength(1)
    expect(lines[0]).toContain(
      [
        '| In Millions, Except Per Share Amounts | First Quarter Fiscal Year 2019 | First Quarter Fiscal Year 2018 | Second Quarter Fiscal Year 2019 | Second Quarter Fiscal Year 2018 |',
        '| --- | --- | --- | --- | --- |',
        '| Net sales | 4,094.0 | 3,769.2 | 4,411.2 | 4,198.7 |',
      ].join('\n'),
    )
  })

  it('climbs a stack of titles six lines deep', () => {
    // Narrow columns wrap their titles over up to six lines; a group title over all of them is
    // the table's caption.
    const rights = [300, 360, 420]
    const wrapped = [
      ['Gross', 'Liabilities', 'Offset in', 'the', 'Balance', 'Sheet (a)'],
      ['Gross', 'Amounts', 'of', 'Recognized', 'Assets'],
      ['Net', 'Amounts', 'of', 'Assets (b)'],
    ]
    const lines = rebuild([
      centred('Assets', 345, 808),
      ...wrapped.flatMap((title, c) =>
        title.map((text, k) => centred(text, rights[c]! - 15, 710 + 12 * (title.length - k))),
      ),
      item('In Millions', 72, 722),
      ...rows(708, rights, [
        ['Commodity contracts', '6.6', '-', '6.6'],
        ['Foreign exchange contracts', '15.3', '-', '15.3'],
        ['Total', '22.6', '-', '22.6'],
      ]),
    ])
    expect(lines).toHaveLength(2)
    expect(lines[0]).toBe('Assets')
    expect(lines[1]).toContain(
      '| In Millions | Gross Liabilities Offset in the Balance Sheet (a) | Gross Amounts of Recognized Assets | Net Amounts of Assets (b) |',
    )
  })

  it('keeps a units note under a group title in that group’s title', () => {
    const rights = [260, 320, 400, 460]
    const lines = rebuild([
      centred('Shares', 275, 736),
      centred('Carrying value', 415, 746),
      centred('(in millions)', 415, 736),
      ...rights.map((right, c) => figure(c % 2 ? '2020' : '2021', right, 722)),
      centred('Issue date', 520, 722),
      ...rows(
        708,
        [...rights, 545],
        [
          ['Series Y', '100', '90', '1,425', '1,150', '2/12/2015'],
          ['Series AA', '142', '142', '1,425', '1,425', '6/4/2015'],
          ['Series BB', '115', '115', '1,150', '1,150', '7/29/2015'],
        ],
      ),
    ])
    expect(lines).toHaveLength(1)
    expect(lines[0]).toContain(
      '| | Shares 2021 | Shares 2020 | Carrying value (in millions) 2021 | Carrying value (in millions) 2020 | Issue date |',
    )
  })

  it('gives a title right of the labels to its column, however far left of its figures', () => {
    const lines = rebuild([
      centred('Number', 380, 740),
      centred('(in millions)', 380, 728),
      centred('Weighted-average', 490, 740),
      centred('Exercise Price', 490, 728),
      ...rows(
        712,
        [420, 520],
        [
          ['Outstanding at June 30, 2022', '45', '$10.66'],
          ['Granted', '7', '11.79'],
          ['Exercised', '(13)', '9.88'],
        ],
      ),
    ])
    expect(lines).toHaveLength(1)
    expect(lines[0]).toContain('| | Number (in millions) | Weighted-average Exercise Price |')
  })

  it('takes column titles turned 90° as the titles of the columns they stand over', () => {
    // Turned anticlockwise, each title runs up from its origin; across, it is one line high.
    const upright = (str: string, x: number, y: number): PdfTextItem => ({
      ...item(str, x, y),
      transform: [0, 10, -10, 0, x, y],
      hasEOL: true,
    })
    const ticks = ['SET DEGREE', 'CHGQRYA', 'STRDBMON', 'Visual Explain', 'DUMP PLAN CACHE']
    const lines = rebuild([
      item('User action', 72, 800),
      upright('*JOBCTL', 406, 720),
      upright('QIBM_DB_SQLADM', 456, 720),
      upright('No Authority', 506, 720),
      ...ticks.flatMap((label, r) => [
        item(label, 72, 704 - 18 * r),
        item('X', 400, 704 - 18 * r),
        item('X', 450, 704 - 18 * r),
        item('X', 500, 704 - 18 * r),
      ]),
    ])
    expect(lines.at(-1)).toContain('| | *JOBCTL | QIBM_DB_SQLADM | No Authority |')
  })

  it('adds an empty column under a title no row fills (a never-ticked column)', () => {
    const ticks = ['SET DEGREE', 'CHGQRYA', 'STRDBMON', 'Visual Explain', 'DUMP PLAN CACHE']
    const lines = rebuild([
      centred('*JOBCTL', 400, 722),
      centred('SECADM', 450, 722),
      centred('SQLADM', 500, 722),
      ...ticks.flatMap((label, r) => [
        item(label, 72, 704 - 18 * r),
        item('X', 398, 704 - 18 * r),
        item('X', 498, 704 - 18 * r),
      ]),
    ])
    expect(lines).toHaveLength(1)
    expect(lines[0]).toContain(
      [
        '| | *JOBCTL | SECADM | SQLADM |',
        '| --- | --- | --- | --- |',
        '| SET DEGREE | X | | X |',
      ].join('\n'),
    )
  })

  it('says once, as the caption, a top title repeated over each group of columns', () => {
    const rights = [300, 360, 440, 500]
    const lines = rebuild([
      centred('REPORTED SALES ($MM)', 320, 736),
      centred('REPORTED SALES ($MM)', 460, 736),
      centred('SECOND QUARTER', 320, 722),
      centred('SIX MONTHS', 460, 722),
      ...rows(708, rights, [
        ['', '2023', '2022', '2023', '2022'],
        ['U.S.', '7,818', '7,159', '14,841', '13,791'],
        ['International', '5,913', '6,158', '12,303', '12,395'],
        ['Worldwide', '13,731', '13,317', '27,144', '26,186'],
      ]).filter((item) => item.str !== ''),
    ])
    expect(lines[0]).toBe('REPORTED SALES ($MM)')
    expect(lines[1]).toContain(
      '| | SECOND QUARTER 2023 | SECOND QUARTER 2022 | SIX MONTHS 2023 | SIX MONTHS 2022 |',
    )
    expect(lines).toHaveLength(2)
  })
})
