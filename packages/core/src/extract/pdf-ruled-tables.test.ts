import { describe, expect, it } from 'vitest'
import { ruledTablePdf, type RuledTable } from '../testing/ruled-table-pdf.ts'
import { markdownTables } from '../testing/table-cells.ts'
import { extractPdf } from './pdf.ts'

/** Town records: wrapped descriptions beside short counts, as ruled tables often hold. */
const TOWNS: RuledTable = {
  widths: [110, 220, 90],
  rows: [
    ['Town', 'What the survey found', 'Mills'],
    ['Ashford', 'Two mills on the northern river,\nboth grinding barley', 'Two'],
    ['Brookley', 'One mill by the bridge', 'One'],
    ['Carrow Vale', 'Three mills, one of them\nrebuilt after the flood of\nthe old year', 'Three'],
  ],
}

const TOWN_GRID = [
  ['Town', 'What the survey found', 'Mills'],
  ['Ashford', 'Two mills on the northern river, both grinding barley', 'Two'],
  ['Brookley', 'One mill by the bridge', 'One'],
  ['Carrow Vale', 'Three mills, one of them rebuilt after the flood of the old year', 'Three'],
]

const extract = async (table: RuledTable, boxed = false) =>
  (await extractPdf(await ruledTablePdf(table, boxed))).text

describe('ruled tables', () => {
  it('takes rows and columns from the rules: wrapped cells stay whole, prose stays prose', async () => {
    const text = await extract(TOWNS)
    expect(markdownTables(text)).toEqual([TOWN_GRID])
    expect(text.startsWith('The survey counted the mills and lamps of each valley town.\n')).toBe(
      true,
    )
    expect(
      text.trimEnd().endsWith('Both counts were read aloud at the council meeting in the spring.'),
    ).toBe(true)
  })

  it('finds a grid whose sides are left open and whose cells have white backgrounds', async () => {
    const text = await extract({ ...TOWNS, sides: false, backgrounds: true })
    expect(markdownTables(text)).toEqual([TOWN_GRID])
  })

  it('starts a new row where every cell starts a line on one baseline, rule or none', async () => {
    const text = await extract({
      widths: [140, 90, 160],
      unruled: [1],
      rows: [
        ['Class', 'Symbol', 'Exchange'],
        ['Ordinary shares\nGuaranteed notes due 2027', 'AMCR\nAUKF/27', 'New York\nNew York'],
        ['Preference shares, listed\nin the spring', 'AMPR', 'London'],
      ],
    })
    expect(markdownTables(text)).toEqual([
      [
        ['Class', 'Symbol', 'Exchange'],
        ['Ordinary shares', 'AMCR', 'New York'],
        ['Guaranteed notes due 2027', 'AUKF/27', 'New York'],
        ['Preference shares, listed in the spring', 'AMPR', 'London'],
      ],
    ])
  })

  it('repeats a cell merged over two rows in each, as docling does', async () => {
    const text = await extract({
      widths: [90, 60, 60, 200],
      spans: [[0, 0]],
      rows: [
        ['Town', 'Mills', 'Mills', 'Lamps'],
        ['', 'north', 'south', 'harbour'],
        ['Ashford', 'Two', 'One', 'Four lamps lit along\nthe harbour wall'],
        ['Brookley', 'One', 'None', 'Six lamps by the\nfish market steps'],
      ],
    })
    expect(markdownTables(text)).toEqual([
      [
        ['Town', 'Mills', 'Mills', 'Lamps'],
        ['Town', 'north', 'south', 'harbour'],
        ['Ashford', 'Two', 'One', 'Four lamps lit along the harbour wall'],
        ['Brookley', 'One', 'None', 'Six lamps by the fish market steps'],
      ],
    ])
  })

  it('reads the rules the page draws, not those an annotation draws over it', async () => {
    const text = await extract({ ...TOWNS, annotation: true })
    expect(markdownTables(text)).toEqual([])
    expect(text).toContain('Carrow Vale')
  })

  it('leaves a paragraph in a box as prose', async () => {
    const text = await extract({ ...TOWNS, rows: TOWNS.rows.slice(0, 1) }, true)
    expect(markdownTables(text)).toEqual([])
    expect(text).toContain('The survey counted the mills and lamps of each valley town.')
  })
})
