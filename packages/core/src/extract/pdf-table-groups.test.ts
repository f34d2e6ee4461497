import { describe, expect, it } from 'vitest'
import { positionedLines, type PdfTextItem } from './pdf-lines.ts'
import { rebuildTables } from './pdf-tables.ts'

/** A pdf.js text item as a real page has it: text, x, baseline y, size and width. */
type Drawn = [str: string, x: number, y: number, size: number, width: number]

const item = ([str, x, y, size, width]: Drawn): PdfTextItem => ({
  str,
  transform: [size, 0, 0, size, x, y],
  width,
  height: size,
  hasEOL: false,
})

const rebuild = (drawn: Drawn[]) => rebuildTables(positionedLines(drawn.map(item)))

/** Items at `y` of `size`, each [text, x, width]. */
const at = (y: number, size: number, cells: [string, number, number][]): Drawn[] =>
  cells.map(([str, x, width]) => [str, x, y, size, width])

// The text positions of Johnson & Johnson's Q2 2023 earnings release, page 15 (rows cut to three,
// its footnote marks left out): "% Change" over Reported, Operational and Currency, centred over
// the middle one's extent, a little further above them than the table steps from row to row.
const byGroup: Drawn[] = [
  ...at(703.2, 4.55, [
    ['SECOND QUARTER', 218.5, 43],
    ['SIX MONTHS', 458.4, 28.5],
  ]),
  ...at(689.2, 4.55, [
    ['2023', 151.3, 10.1],
    ['2022', 189.5, 10.1],
    ['Reported', 224.2, 19.9],
    ['Operational', 262.1, 25.4],
    ['Currency', 311.4, 19.9],
    ['2023', 396.6, 10.1],
    ['2022', 446.5, 10.1],
    ['Reported', 475.1, 19.9],
    ['Operational', 507.8, 25.4],
    ['Currency', 550, 19.9],
  ]),
  ...at(680.3, 4.55, [['CONSUMER HEALTH SEGMENT', 19.7, 69.9]]),
  ...at(670.7, 4.55, [['OTC', 19.7, 9.7]]),
  ...at(664.3, 4.55, [
    ['US', 19.7, 6.3],
    ['712', 163.2, 7.6],
    ['$', 141.2, 2.5],
    ['663', 201.4, 7.6],
    ['7.5%', 236.4, 10.4],
    ['7.5%', 278.9, 10.4],
    ['-', 329.3, 1.5],
    ['1,457', 409, 11.4],
    ['$', 381.7, 2.5],
    ['1,333', 454.8, 11.4],
    ['9.3%', 481.1, 10.4],
    ['9.3%', 525.6, 10.4],
    ['-', 559.7, 1.5],
  ]),
  ...at(658.1, 4.55, [
    ['Intl', 19.7, 6.2],
    ['947', 163.2, 7.6],
    ['818', 201.4, 7.5],
    ['15.7%', 233.9, 12.9],
    ['19.0%', 276.4, 12.9],
    ['-3.3%', 322.9, 11.9],
    ['1,844', 409, 11.4],
    ['1,609', 454.8, 11.4],
    ['14.6%', 478.6, 12.9],
    ['19.4%', 523.1, 12.9],
    ['-4.8%', 553.3, 12],
  ]),
  ...at(651.4, 4.55, [
    ['WW', 19.7, 8.8],
    ['1,659', 159.4, 11.4],
    ['1,482', 197.5, 11.4],
    ['12.0%', 233.9, 12.9],
    ['13.9%', 276.4, 12.9],
    ['-1.9%', 322.9, 11.9],
    ['3,301', 409, 11.4],
    ['2,943', 454.8, 11.4],
    ['12.2%', 478.6, 12.9],
    ['14.8%', 523.1, 12.9],
    ['-2.6%', 553.3, 12],
  ]),
  ...at(696.8, 4.55, [
    ['% Change', 267.2, 21.8],
    ['% Change', 511.1, 21.8],
  ]),
]

describe('group titles over the column titles', () => {
  it('heads every column a title is centred over, not only the middle one it fits within', () => {
    const [table] = rebuild(byGroup)
    expect(table).toContain(
      '| | SECOND QUARTER 2023 | SECOND QUARTER 2022 | SECOND QUARTER % Change Reported | SECOND QUARTER % Change Operational | SECOND QUARTER % Change Currency | SIX MONTHS 2023 | SIX MONTHS 2022 | SIX MONTHS % Change Reported | SIX MONTHS % Change Operational | SIX MONTHS % Change Currency |',
    )
  })

  it('heads the columns under a title a little over a row step above them, lined up with none', () => {
    // Page 20 of the same release (rows cut to four): "% Change" sits 6.8 points over its
    // columns' titles, the table steps 6.2 to 6.7 from row to row. Its first group's middle
    // title has its footnote mark, and the group title is centred on neither that title nor its
    // edges, as a wrapped title's first line would be.
    const lines = rebuild([
      ...at(713.9, 4.55, [
        ['SECOND QUARTER', 218.5, 43],
        ['SIX MONTHS', 458.4, 28.5],
      ]),
      ...at(701, 4.55, [
        ['2023', 151.3, 10.1],
        ['2022', 189.5, 10.1],
        ['Reported', 224.2, 19.9],
      ]),
      ['Operational', 262.1, 701.4, 4.55, 25.4],
      ['(1)', 288.8, 703.7, 2.99, 3.6],
      ['Currency', 311.4, 701, 4.55, 19.9],
      ...at(701, 4.55, [
        ['2023', 396.6, 10.1],
        ['2022', 446.5, 10.1],
        ['Reported', 475.1, 19.9],
      ]),
      ['Operational', 507.8, 701.4, 4.55, 25.4],
      ['(1)', 534.6, 703.7, 2.99, 3.6],
      ['Currency', 550, 701, 4.55, 19.9],
      ...at(691.8, 4.55, [['SURGERY', 19.7, 22.3]]),
      ...at(685.4, 4.55, [
        ['US', 19.7, 6.3],
        ['1,015', 159.4, 11.4],
        ['992', 201.4, 7.6],
        ['2.2%', 236.4, 10.4],
        ['2.2%', 278.9, 10.4],
        ['-', 329.3, 1.5],
        ['1,990', 409, 11.4],
        ['1,913', 454.8, 11.4],
        ['4.0%', 481.1, 10.4],
        ['4.0%', 525.6, 10.4],
        ['-', 559.7, 1.5],
      ]),
      ...at(679.2, 4.55, [
        ['Intl', 19.7, 6.2],
        ['1,580', 159.4, 11.4],
        ['1,458', 197.5, 11.4],
        ['8.4%', 236.4, 10.4],
        ['12.6%', 276.3, 12.9],
        ['-4.2%', 322.9, 11.9],
        ['3,039', 409, 11.4],
        ['2,971', 454.8, 11.4],
        ['2.3%', 481.1, 10.4],
        ['7.7%', 525.6, 10.4],
        ['-5.4%', 553.3, 11.9],
      ]),
      ...at(672.5, 4.55, [
        ['WW', 19.7, 8.8],
        ['2,594', 159.4, 11.4],
        ['2,450', 197.5, 11.4],
        ['5.9%', 236.4, 10.4],
        ['8.4%', 278.9, 10.4],
        ['-2.5%', 322.9, 12],
        ['5,028', 409, 11.4],
        ['4,884', 454.8, 11.4],
        ['3.0%', 481.1, 10.4],
        ['6.3%', 525.6, 10.4],
        ['-3.3%', 553.3, 11.9],
      ]),
      // The page's last row, "TOTAL MEDTECH" WW, moved up from 495.1: its dollar signs, left of
      // the figures, are what the first figure columns reach their titles by.
      ...at(666.2, 4.55, [
        ['WW', 19.7, 8.5],
        ['7,788', 159.4, 11.4],
        ['$', 141.4, 2.5],
        ['6,898', 197.5, 11.4],
        ['12.9%', 234, 12.9],
        ['14.7%', 276.5, 12.9],
        ['-1.8%', 323, 11.9],
        ['15,269', 406.4, 13.9],
        ['$', 381.8, 2.5],
        ['13,869', 452.3, 13.9],
        ['10.1%', 478.7, 12.9],
        ['12.8%', 523.2, 12.9],
        ['-2.7%', 553.4, 11.9],
      ]),
      ...at(707.8, 4.55, [
        ['% Change', 267.2, 21.8],
        ['% Change', 511.1, 21.8],
      ]),
    ])
    expect(lines.join('\n')).toContain(
      '| | SECOND QUARTER 2023 | SECOND QUARTER 2022 | SECOND QUARTER % Change Reported | SECOND QUARTER % Change Operational(1) | SECOND QUARTER % Change Currency | SIX MONTHS 2023 | SIX MONTHS 2022 | SIX MONTHS % Change Reported | SIX MONTHS % Change Operational(1) | SIX MONTHS % Change Currency |',
    )
  })

  it('heads two groups side by side, each over the run of columns it is centred over', () => {
    // JPMorgan's 10-Q for Q1 2021, page 124 (rows cut to three, footnote marks left out):
    // "Term loans by origination year" over six columns, "Revolving loans" over the next two.
    const lines = rebuild([
      ['(in millions, except ratios)', 70.1, 650.5, 7.5, 79.2],
      ['March 31, 2021', 348.1, 691, 7.5, 50],
      ['Term loans by origination year', 258.3, 678.3, 7.5, 92.5],
      ['Revolving loans', 452.6, 678.3, 7.5, 47.3],
      ['Total', 534.3, 650.5, 7.5, 15.2],
      ['2021', 196, 650.5, 7.5, 16.8],
      ['2020', 237.2, 650.5, 7.5, 16.8],
      ['2019', 278.5, 650.5, 7.5, 16.8],
      ['2018', 319.7, 650.5, 7.5, 16.8],
      ['2017', 361, 650.5, 7.5, 16.8],
      ['Prior to', 399.1, 658, 7.5, 23],
      ['2017', 402.2, 650.5, 7.5, 16.8],
      ['Within the', 440.2, 665.5, 7.5, 30.9],
      ['revolving', 441.6, 658, 7.5, 28],
      ['period', 445.8, 650.5, 7.5, 19.6],
      ['Converted', 481.4, 665.5, 7.5, 30.9],
      ['to term', 485.6, 658, 7.5, 22.5],
      ['loans', 488.8, 650.5, 7.5, 16.1],
      ['Loan delinquency', 70.1, 637.8, 7.5, 55],
      ['Current', 70.1, 625, 7.5, 23],
      ['$', 186.4, 625.6, 7.5, 4.2],
      ['13,779', 195.4, 625.6, 7.5, 22.9],
      ['$', 227.6, 625.6, 7.5, 4.2],
      ['57,109', 236.6, 625.6, 7.5, 22.9],
      ['$', 268.9, 625.6, 7.5, 4.2],
      ['27,264', 277.9, 625.6, 7.5, 22.9],
      ['$', 310.1, 625.6, 7.5, 4.2],
      ['11,868', 319.1, 625.6, 7.5, 22.9],
      ['$', 351.4, 625.6, 7.5, 4.2],
      ['17,387', 360.4, 625.6, 7.5, 22.9],
      ['$', 392.6, 625.6, 7.5, 4.2],
      ['68,061', 401.6, 625.6, 7.5, 22.9],
      ['$', 437.6, 625.6, 7.5, 4.2],
      ['6,165', 450.8, 625.6, 7.5, 18.7],
      ['$', 478.9, 625.6, 7.5, 4.2],
      ['15,542', 487.9, 625.6, 7.5, 22.9],
      ['$', 523.9, 625.6, 7.5, 4.2],
      ['217,175', 528.7, 625.6, 7.5, 27.1],
      ['30–149 days past due', 70.1, 612.3, 7.5, 67.3],
      ['—', 213.3, 612.8, 7.5, 4.9],
      ['5', 255.3, 612.8, 7.5, 4.2],
      ['11', 292.3, 612.8, 7.5, 8.4],
      ['15', 333.6, 612.8, 7.5, 8.4],
      ['12', 374.8, 612.8, 7.5, 8.4],
      ['595', 411.9, 612.8, 7.5, 12.6],
      ['17', 461.1, 612.8, 7.5, 8.4],
      ['193', 498.1, 612.8, 7.5, 12.6],
      ['848', 543.1, 612.8, 7.5, 12.6],
      ['150 or more days past due', 70.1, 599.5, 7.5, 81.8],
      ['—', 213.3, 600.1, 7.5, 4.9],
      ['2', 255.3, 600.1, 7.5, 4.2],
      ['4', 296.5, 600.1, 7.5, 4.2],
      ['8', 337.8, 600.1, 7.5, 4.2],
      ['20', 374.8, 600.1, 7.5, 8.4],
      ['838', 411.9, 600.1, 7.5, 12.6],
      ['16', 461.1, 600.1, 7.5, 8.4],
      ['262', 498.1, 600.1, 7.5, 12.6],
      ['1,150', 537.1, 600.1, 7.5, 18.7],
    ])
    expect(lines[0]).toBe('March 31, 2021')
    expect(lines[1]).toContain(
      '| (in millions, except ratios) | Term loans by origination year 2021 | Term loans by origination year 2020 | Term loans by origination year 2019 | Term loans by origination year 2018 | Term loans by origination year 2017 | Term loans by origination year Prior to 2017 | Revolving loans Within the revolving period | Revolving loans Converted to term loans | Total |',
    )
  })

  it('heads a run of columns with a title set flush with its last column, not centred', () => {
    // Verizon's 2021 10-K, page 91: "Pension" and "Health Care and Life" end where the titles of
    // their groups' last columns end, and the same years stand under each.
    const lines = rebuild([
      ['(dollars in millions)', 477.2, 733, 9, 71.5],
      ['Pension', 390.4, 721, 9, 30],
      ['Health Care and Life', 466.9, 721, 9, 81.7],
      ['At December 31,', 43.1, 709, 9, 61.7],
      ...at(709, 9, [
        ['2021', 316.9, 18],
        ['2020', 359.6, 18],
        ['2019', 402.4, 18],
        ['2021', 445.1, 18],
        ['2020', 487.9, 18],
        ['2019', 530.6, 18],
      ]),
      ['Prior service cost (benefit)', 43.1, 695.6, 9, 95.7],
      ...at(697, 9, [
        ['$', 301.1, 4.5],
        ['—', 324.8, 9],
        ['$', 343.9, 4.5],
        ['—', 367.5, 9],
        ['$', 386.6, 4.5],
        ['—', 410.3, 9],
        ['$', 429.4, 4.5],
        ['—', 453, 9],
        ['$', 472.1, 4.5],
        ['—', 495.8, 9],
        ['$', 514.9, 4.5],
        ['(22)', 535.5, 15],
      ]),
      ['Reversal of amortization items', 43.1, 683.6, 9, 110.7],
      ...at(673, 9, [
        ['Prior service cost (benefit)', 55.1, 95.7],
        ['(61)', 321.8, 15],
        ['(61)', 364.5, 15],
        ['(61)', 407.3, 15],
        ['894', 448.5, 13.5],
        ['966', 491.2, 13.5],
        ['971', 534, 13.5],
      ]),
      ...at(661, 9, [
        ['Total recognized in Other comprehensive loss (income) (pre-tax)', 43.1, 247.2],
        ['$', 301.1, 4.5],
        ['(61)', 321.8, 15],
        ['$', 343.9, 4.5],
        ['(61)', 364.5, 15],
        ['$', 386.6, 4.5],
        ['(61)', 407.3, 15],
        ['$', 429.4, 4.5],
        ['894', 448.5, 13.5],
        ['$', 472.1, 4.5],
        ['966', 491.2, 13.5],
        ['$', 514.9, 4.5],
        ['949', 534, 13.5],
      ]),
    ])
    expect(lines.join('\n')).toContain(
      '| (dollars in millions) At December 31, | Pension 2021 | Pension 2020 | Pension 2019 | Health Care and Life 2021 | Health Care and Life 2020 | Health Care and Life 2019 |',
    )
  })

  it('keeps a wrapped title set closer than the rows to its own column, though flush with it', () => {
    // American Express's 2022 10-K, page 119 (rows cut to three): "Gross" over "Unrealized
    // Losses" ends each group, the same titles under each, as a flush group title would; it
    // steps down less than the title's other lines do.
    const lines = rebuild([
      ['Less than 12 months', 179, 697.5, 7.2, 59.4],
      ['12 months or more', 337, 697.5, 7.2, 54.6],
      ['Total', 512.7, 697.5, 7.2, 14.7],
      ['Ratio of Fair Value to', 19.1, 680, 7.2, 62.2],
      ['Amortized Cost', 19.1, 672.5, 7.2, 45.8],
      ['(Dollars in millions)', 66.7, 672.5, 7.2, 59.2],
      ['Number of', 148.9, 680, 7.2, 31.4],
      ['Securities', 151.9, 672.5, 7.2, 28.4],
      ['Estimated', 200.9, 680, 7.2, 28.8],
      ['Fair Value', 200.1, 672.5, 7.2, 29.6],
      ['Gross', 264.9, 686.7, 7.2, 16.8],
      ['Unrealized', 250.1, 680, 7.2, 31.6],
      ['Losses', 262.1, 672.5, 7.2, 19.6],
      ['Number of', 302.1, 680, 7.2, 31.4],
      ['Securities', 305.1, 672.5, 7.2, 28.4],
      ['Estimated', 355, 680, 7.2, 28.8],
      ['Fair Value', 354.1, 672.5, 7.2, 29.6],
      ['Gross', 422.8, 686.7, 7.2, 16.8],
      ['Unrealized', 408.1, 680, 7.2, 31.6],
      ['Losses', 420, 672.5, 7.2, 19.6],
      ['Number of', 460.1, 680, 7.2, 31.4],
      ['Securities', 463.1, 672.5, 7.2, 28.4],
      ['Estimated', 512.1, 680, 7.2, 28.8],
      ['Fair Value', 511.3, 672.5, 7.2, 29.6],
      ['Gross', 576.3, 686.7, 7.2, 16.8],
      ['Unrealized', 561.5, 680, 7.2, 31.6],
      ['Losses', 573.5, 672.5, 7.2, 19.6],
      ['2022:', 19.1, 661.7, 7.2, 16.8],
      ['90%–100%', 19.1, 651.6, 7.2, 33.6],
      ['74', 173.1, 651.6, 7.2, 7.2],
      ['$', 187.6, 651.6, 7.2, 3.6],
      ['4,287', 211.2, 651.6, 7.2, 16.2],
      ['$', 237.1, 651.6, 7.2, 3.6],
      ['(74)', 269, 651.6, 7.2, 12],
      ['3', 329.9, 651.6, 7.2, 3.6],
      ['$', 340.9, 651.6, 7.2, 3.6],
      ['52', 374.1, 651.6, 7.2, 7.2],
      ['$', 391.1, 651.6, 7.2, 3.6],
      ['(1)', 430.6, 651.6, 7.2, 8.4],
      ['77', 484.3, 651.6, 7.2, 7.2],
      ['$', 498.8, 651.6, 7.2, 3.6],
      ['4,339', 522.4, 651.6, 7.2, 16.2],
      ['$', 548.3, 651.6, 7.2, 3.6],
      ['(75)', 580.3, 651.6, 7.2, 12],
      ['Less than 90%', 19.1, 642.2, 7.2, 42.4],
      ['14', 173.1, 642.2, 7.2, 7.2],
      ['24', 220.2, 642.2, 7.2, 7.2],
      ['(9)', 272.6, 642.2, 7.2, 8.4],
      ['—', 326.3, 642.2, 7.2, 7.2],
      ['—', 374.1, 642.2, 7.2, 7.2],
      ['—', 430, 642.2, 7.2, 7.2],
      ['14', 484.3, 642.2, 7.2, 7.2],
      ['24', 531.4, 642.2, 7.2, 7.2],
      ['(9)', 583.9, 642.2, 7.2, 8.4],
      ['Total as of December 31, 2022', 19.1, 631.4, 7.2, 88.6],
      ['88', 173.1, 631.4, 7.2, 7.2],
      ['$', 187.6, 631.4, 7.2, 3.6],
      ['4,311', 211.6, 631.4, 7.2, 15.8],
      ['$', 237.1, 631.4, 7.2, 3.6],
      ['(83)', 269, 631.4, 7.2, 12],
      ['3', 329.9, 631.4, 7.2, 3.6],
      ['$', 340.9, 631.4, 7.2, 3.6],
      ['52', 374.1, 631.4, 7.2, 7.2],
      ['$', 391.1, 631.4, 7.2, 3.6],
      ['(1)', 430.6, 631.4, 7.2, 8.4],
      ['91', 484.3, 631.4, 7.2, 7.2],
      ['$', 498.8, 631.4, 7.2, 3.6],
      ['4,363', 522.4, 631.4, 7.2, 16.2],
      ['$', 548.3, 631.4, 7.2, 3.6],
      ['(84)', 580.3, 631.4, 7.2, 12],
    ])
    expect(lines.join('\n')).toContain(
      '| Less than 12 months Number of Securities | Less than 12 months Estimated Fair Value | Less than 12 months Gross Unrealized Losses | 12 months or more Number of Securities |',
    )
  })

  it("keeps a lone title line over a group's title, one line step up, to that group", () => {
    // General Mills's 2022 10-K, page 76 (rows cut to three, one of two lines): "Other
    // Postretirement Benefit / Plans" heads the middle of three groups of three columns, so is
    // centred over the whole table too; it sits one line step over "Plans", centred alike.
    const lines = rebuild([
      ['Defined Benefit Pension Plans', 221.9, 599.3, 4.98, 63.7],
      ['Other Postretirement Benefit', 295, 604.9, 4.98, 61.9],
      ['Plans', 320.1, 599.3, 4.98, 11.6],
      ['Postemployment Benefit Plans', 365.9, 599.3, 4.98, 64.7],
      ['Fiscal Year', 241.4, 592.2, 4.98, 23.5],
      ['Fiscal Year', 316, 592.2, 4.98, 23.5],
      ['Fiscal Year', 388.3, 592.2, 4.98, 23.5],
      ['In Millions', 169.8, 585.5, 4.98, 23.4],
      ['2022', 227.9, 585.5, 4.98, 10],
      ['2021', 250.8, 585.5, 4.98, 10],
      ['2020', 273.6, 585.5, 4.98, 10],
      ['2022', 300.3, 585.5, 4.98, 10],
      ['2021', 323.1, 585.5, 4.98, 10],
      ['2020', 346, 585.5, 4.98, 10],
      ['2022', 372.6, 585.5, 4.98, 10],
      ['2021', 395.5, 585.5, 4.98, 10],
      ['2020', 418.3, 585.5, 4.98, 10],
      ['Service cost', 169.8, 578.3, 4.98, 24.2],
      ['$', 219.3, 578.3, 4.98, 2.5],
      ['93.5', 232, 578.3, 4.98, 8.7],
      ['$', 242.2, 578.3, 4.98, 2.5],
      ['104.4 $', 252.3, 578.3, 4.98, 15.6],
      ['92.7', 277.8, 578.3, 4.98, 8.7],
      ['$', 291.6, 578.3, 4.98, 2.5],
      ['7.6', 307, 578.3, 4.98, 6.2],
      ['$', 314.9, 578.3, 4.98, 2.5],
      ['8.5 $', 329.9, 578.3, 4.98, 10.4],
      ['9.4', 352.7, 578.3, 4.98, 6.2],
      ['$', 364.4, 578.3, 4.98, 2.5],
      ['10.0', 376.7, 578.3, 4.98, 8.7],
      ['$', 387.2, 578.3, 4.98, 2.5],
      ['9.3 $', 402.2, 578.3, 4.98, 10.4],
      ['8.3', 425.1, 578.3, 4.98, 6.2],
      ['Interest cost', 169.8, 571.6, 4.98, 24.2],
      ['184.3', 229.4, 571.6, 4.98, 11.2],
      ['192.1', 252.3, 571.6, 4.98, 11.2],
      ['230.5', 275.1, 571.6, 4.98, 11.2],
      ['12.6', 304.4, 571.6, 4.98, 8.7],
      ['18.0', 327.2, 571.6, 4.98, 8.7],
      ['27.1', 350.1, 571.6, 4.98, 8.7],
      ['1.5', 379.4, 571.6, 4.98, 6.2],
      ['1.7', 402.2, 571.6, 4.98, 6.2],
      ['2.6', 425.1, 571.6, 4.98, 6.2],
      ['Expected return on', 169.8, 564.5, 4.98, 37.9],
      ['plan assets', 173.6, 558.8, 4.98, 21.4],
      ['(411.1)', 227.9, 558.8, 4.98, 14.2],
      ['(420.9)', 250.8, 558.8, 4.98, 14.5],
      ['(449.9)', 273.6, 558.8, 4.98, 14.5],
      ['(26.7)', 302.5, 558.8, 4.98, 12],
      ['(34.7)', 325.4, 558.8, 4.98, 12],
      ['(42.1)', 348.6, 558.8, 4.98, 12],
      ['-', 383.8, 558.8, 4.98, 1.7],
      ['-', 406.7, 558.8, 4.98, 1.7],
      ['-', 429.6, 558.8, 4.98, 1.7],
    ])
    expect(lines.join('\n')).toContain(
      '| Other Postretirement Benefit Plans Fiscal Year 2022 | Other Postretirement Benefit Plans Fiscal Year 2021 | Other Postretirement Benefit Plans Fiscal Year 2020 | Postemployment Benefit Plans Fiscal Year 2022 |',
    )
  })

  it('keeps a caption over groups of columns, though it fits over the middle group', () => {
    // Activision Blizzard's 2019 10-K, page 115 (rows cut to three): "For the Years Ended
    // December 31," is centred over the table and over "2018" alike, further above it than the
    // table's lines are apart.
    const lines = rebuild([
      ['For the Years Ended December 31,', 378.8, 389.9, 6.8, 101],
      ['2019', 317.7, 376.6, 6.8, 13.6],
      ['2018', 422.2, 376.6, 6.8, 13.6],
      ['2017', 527.1, 376.6, 6.8, 13.6],
      ['Federal income tax provision at statutory rate', 13.4, 364.4, 8.5, 154.3],
      ['$', 275.4, 364.4, 8.5, 4.2],
      ['343', 300.9, 364.4, 8.5, 12.7],
      ['21 %', 354.2, 364.4, 8.5, 17.7],
      ['$', 379.9, 364.4, 8.5, 4.2],
      ['394', 405.4, 364.4, 8.5, 12.7],
      ['21 %', 458.8, 364.4, 8.5, 17.7],
      ['$', 484.5, 364.4, 8.5, 4.2],
      ['403', 510, 364.4, 8.5, 12.7],
      ['35 %', 564, 364.4, 8.5, 17.7],
      ['State taxes, net of federal benefit', 13.4, 351.7, 8.5, 111.8],
      ['20', 305.1, 351.7, 8.5, 8.5],
      ['1', 358.5, 351.7, 8.5, 4.2],
      ['36', 409.7, 351.7, 8.5, 8.5],
      ['2', 463, 351.7, 8.5, 4.2],
      ['4', 518.5, 351.7, 8.5, 4.2],
      ['—', 564, 351.7, 8.5, 8.5],
      ['Research and development credits', 13.4, 338.9, 8.5, 116.3],
      ['(38)', 302.3, 338.9, 8.5, 14.2],
      ['(2)', 355.7, 338.9, 8.5, 9.9],
      ['(46)', 406.9, 338.9, 8.5, 14.2],
      ['(2)', 460.2, 338.9, 8.5, 9.9],
      ['(26)', 511.4, 338.9, 8.5, 14.2],
      ['(2)', 565.4, 338.9, 8.5, 9.9],
    ])
    expect(lines[0]).toBe('For the Years Ended December 31,')
    expect(lines[1]).toContain('| | 2019 | 2019 | 2018 | 2018 | 2017 | 2017 |')
  })

  it('keeps the first line of a wrapped title, a row step above the rest, to its own column', () => {
    // Page 10 of the same release: "Percent / to Sales" wrapped at the table's own row step,
    // centred over its column as a group title over three would be.
    const lines = rebuild([
      ...at(490.7, 8.78, [
        ['2023', 434.8, 19.6],
        ['2022', 589.3, 19.6],
        ['Percent', 712.1, 30.4],
      ]),
      ...at(476, 8.78, [
        ['Percent', 464.6, 32.4],
        ['Percent', 617.4, 32.3],
        ['Increase', 708.6, 33.8],
      ]),
      ...at(461.4, 8.78, [
        ['Amount', 382, 32.9],
        ['to Sales', 464.6, 33.7],
        ['Amount', 538.5, 32.9],
        ['to Sales', 617.5, 33.8],
        ['(Decrease)', 698.9, 43.6],
      ]),
      ...at(448, 8.78, [
        ['Sales to customers', 49.4, 80.7],
        ['$', 384.8, 4.9],
        ['25,530', 402.8, 27],
        ['100.0', 481.4, 22],
        ['$', 541.3, 4.9],
        ['24,020', 555.3, 27],
        ['100.0', 634.1, 22],
        ['6.3', 727.3, 12.2],
      ]),
      ...at(433.3, 8.78, [
        ['Cost of products sold', 49.4, 90.8],
        ['8,212', 407.6, 22.1],
        ['32.2', 486.2, 17.1],
        ['7,919', 560.3, 22.1],
        ['33.0', 639, 17.1],
        ['3.7', 727.3, 12.2],
      ]),
      ...at(418.7, 8.78, [
        ['Gross Profit', 49.4, 50.7],
        ['17,318', 402.7, 27],
        ['67.8', 486.2, 17.1],
        ['16,101', 555.4, 26.9],
        ['67.0', 639, 17.1],
        ['7.6', 727.3, 12.2],
      ]),
    ])
    expect(lines[0]).toContain(
      '| | 2023 Amount | 2023 Percent to Sales | 2022 Amount | 2022 Percent to Sales | Percent Increase (Decrease) |',
    )
  })
})
