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
