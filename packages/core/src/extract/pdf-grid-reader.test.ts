import { describe, expect, it } from 'vitest'
import { cellLinesLeft } from './pdf-grid-reader.ts'
import type { PositionedLine } from './pdf-lines.ts'

/** A line at baseline y with one segment per cell, 100 pt apart. */
const line = (y: number, ...cells: string[]): PositionedLine => ({
  text: cells.join(' '),
  y,
  size: 10,
  segments: cells.map((text, i) => ({ x0: i * 100, x1: i * 100 + 50, text })),
})

describe('cellLinesLeft', () => {
  const heading = line(700, 'Annual report', '12')
  const row = line(680, 'Ashford', 'Two mills', 'Four lamps')
  const prose = line(660, 'The survey counted the mills of each town.')

  it('reads the drawing when two lines of cells, one of three or more, stayed prose', () => {
    const lines = [heading, row, prose]
    expect(
      cellLinesLeft(
        lines,
        lines.map((l) => l.text),
      ),
    ).toBe(true)
  })

  it('does not for a lone line of cells, nor for two-part lines alone', () => {
    expect(cellLinesLeft([row, prose], [row.text, prose.text])).toBe(false)
    const other = line(640, 'Contents', 'iv')
    expect(cellLinesLeft([heading, other, prose], [heading.text, other.text, prose.text])).toBe(
      false,
    )
  })

  it('does not count lines the rebuild already made into a table', () => {
    const table = '| Ashford | Two mills | Four lamps |'
    expect(cellLinesLeft([heading, row, prose], [heading.text, table, prose.text])).toBe(false)
  })
})
