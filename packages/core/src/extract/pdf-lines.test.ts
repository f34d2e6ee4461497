import { describe, expect, it } from 'vitest'
import { positionedLines, type PdfTextItem } from './pdf-lines.ts'
import { words } from './pdf-tables.ts'

/** A pdf.js text item of 10 pt text at x, baseline y; glyphs 5 pt wide. */
function item(str: string, x: number, y = 700, hasEOL = false): PdfTextItem {
  return { str, transform: [10, 0, 0, 10, x, y], width: str.length * 5, height: 10, hasEOL }
}

describe('positionedLines', () => {
  it('splits an item at runs of two or more spaces, placing each piece along its width', () => {
    const [line] = positionedLines([item('Net sales   1,975  2,255', 72)])
    expect(line!.text).toBe('Net sales 1,975 2,255')
    expect(line!.segments).toEqual([
      { x0: 72, x1: 117, text: 'Net sales' },
      { x0: 132, x1: 157, text: '1,975' },
      { x0: 167, x1: 192, text: '2,255' },
    ])
  })

  it('continues the open segment with an item that follows without a gap', () => {
    const [line] = positionedLines([item('Total', 72), item(' revenues', 97), item('   9', 142)])
    expect(line!.segments.map((s) => s.text)).toEqual(['Total revenues', '9'])
  })

  it('collapses whitespace inside lines and segments and drops blank lines', () => {
    const lines = positionedLines([
      item('Cash', 72),
      item('\tand', 92),
      item('   ', 200, 700, true),
      item(' ', 72, 680, true),
      item('Assets', 72, 660),
    ])
    expect(lines.map((line) => line.text)).toEqual(['Cash and', 'Assets'])
    expect(lines[0]!.segments).toEqual([{ x0: 72, x1: 112, text: 'Cash and' }])
  })

  it('writes a currency sign drawn after its amount, left of it, before it in the text', () => {
    // Johnson & Johnson's Q2 2023 earnings release, page 24: a line of prose to the table
    // rebuild, its "$" drawn after the amount it stands left of.
    const drawn: [string, number, number][] = [
      ['Cost of products sold', 52, 37],
      ['8,212', 154.7, 9.8],
      ['$', 134.6, 2.2],
      ['(1,211)', 201.7, 12.4],
    ]
    const [line] = positionedLines(
      drawn.map(([str, x, width]) => ({
        str,
        transform: [4.33, 0, 0, 4.33, x, 501.6],
        width,
        height: 4.33,
        hasEOL: false,
      })),
    )
    expect(line!.text).toBe('Cost of products sold $8,212 (1,211)')
  })
})

describe('words', () => {
  it('counts runs of characters between spaces as splitting on spaces would', () => {
    for (const text of ['', ' ', 'one', ' two  words ', 'a b  c   d', 'tab\tis a letter here']) {
      expect(words(text)).toBe(text.split(' ').filter(Boolean).length)
    }
    expect(words('Net cash provided by operating activities')).toBe(6)
  })
})
