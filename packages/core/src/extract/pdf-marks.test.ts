import { describe, expect, it } from 'vitest'
import { positionedLines, type PdfTextItem } from './pdf-lines.ts'
import { attachMarks } from './pdf-marks.ts'
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
/** A superscript after text ending at x, over baseline y: smaller, and raised. */
const raised = (str: string, x: number, y: number) => item(str, x, y + 5.5, 6)

const rebuild = (items: PdfTextItem[]) => rebuildTables(positionedLines(items))

const rows = (top: number, data: [string, string, string][]) =>
  data.flatMap(([label, a, b], r) => [
    item(label, 72, top - 14 * r),
    figure(a, 400, top - 14 * r),
    figure(b, 490, top - 14 * r),
  ])

describe('raised marks drawn apart from their line', () => {
  it('puts a fraction drawn after the table back into its label, not on a line of its own', () => {
    const lines = rebuild([
      item('2022', 380, 740),
      item('2021', 470, 740),
      ...rows(726, [
        ['Customer deposits', '110,239', '84,382'],
        ['Accounts payable', '12,133', '10,574'],
      ]),
      // "Preferred shares, $1.66⅔ par value": the label split where the fraction sits.
      item('Preferred shares, $1.66', 72, 698),
      item('par value', 199, 698),
      figure('—', 400, 698),
      figure('—', 490, 698),
      item('Retained earnings', 72, 684),
      figure('16,279', 400, 684),
      figure('13,474', 490, 684),
      item('See Notes to Consolidated Financial Statements.', 150, 660),
      raised('2/3', 187, 698),
    ])
    expect(lines).toHaveLength(2)
    expect(lines[0]).toContain('| Preferred shares, $1.66 2/3 par value | — | — |')
    expect(lines[1]).toBe('See Notes to Consolidated Financial Statements.')
  })

  it('joins a footnote mark to its label and the line it cut in two back into one row', () => {
    const lines = rebuild([
      item('2023', 380, 740),
      item('2022', 470, 740),
      ...rows(726, [
        ['US', '712', '663'],
        ['Intl', '947', '818'],
      ]),
      // The content stream draws the label, its mark, then the rest of the row.
      item('US Exports', 72, 698),
      raised('(4)', 122, 698),
      figure('33', 400, 698),
      figure('44', 490, 698),
      item('WW', 72, 684),
      figure('1,659', 400, 684),
      figure('1,482', 490, 684),
    ])
    expect(lines).toHaveLength(1)
    expect(lines[0]).toContain('| US Exports(4) | 33 | 44 |\n| WW | 1,659 | 1,482 |')
  })

  it('joins a mark to the occurrence of its word it is drawn beside, not the first', () => {
    // Johnson & Johnson's Q2 2023 release, page 15: the "US" row, its figures where the page
    // draws them, with the page's "(1)" mark (3 pt, raised 2.3 pt) set after the second "7.5%".
    const drawn: [string, number, number][] = [
      ['US', 19.7, 6.3],
      ['712', 163.2, 7.6],
      ['$', 141.2, 2.5],
      ['663', 201.4, 7.6],
      ['7.5%', 236.4, 10.4],
      ['7.5%', 278.9, 10.4],
      ['-', 329.3, 1.5],
    ]
    const items = drawn.map(([str, x, width]) => ({ ...item(str, x, 664.3, 4.55), width }))
    const mark = { ...item('(1)', 289.3, 666.6, 2.99), width: 3.6 }
    // The mark is drawn last, as a line of its own; a larger title sets the page's largest size.
    const lines = attachMarks(positionedLines([item('Sales', 19.7, 700), ...items, mark]))
    expect(lines.map((line) => line.text)).toEqual(['Sales', 'US $712 663 7.5% 7.5%(1) -'])
    expect(lines[1]!.segments.map((s) => s.text)).toContain('7.5%(1)')
  })

  it('leaves a small mark that follows no word where it was', () => {
    const lines = rebuild([
      item('2023', 380, 740),
      item('2022', 470, 740),
      ...rows(726, [
        ['US', '712', '663'],
        ['Intl', '947', '818'],
        ['WW', '1,659', '1,482'],
      ]),
      raised('*', 250, 712),
    ])
    expect(lines).toHaveLength(2)
    expect(lines[1]).toBe('*')
  })
})
