import { describe, expect, it } from 'vitest'
import { type LayoutLine, readingOrder } from './ocr-columns.ts'

// Synthetic Tesseract lines on a 1000 px wide page: 20 px high rows, words 60 px wide with
// 10 px spaces, so a line's words are laid out as they would be scanned.
const WIDTH = 1000

/** A line of `text` starting at x on row `row`; words are placed one after another. */
function line(text: string, x: number, row: number): LayoutLine {
  const y0 = 100 + row * 30
  const words = text.split(' ').map((word, i) => ({
    text: word,
    bbox: { x0: x + i * 70, y0, x1: x + i * 70 + 60, y1: y0 + 20 },
  }))
  return { text, bbox: { ...words[0]!.bbox, x1: words.at(-1)!.bbox.x1 }, words }
}

/** Tesseract's reading of two columns through a narrow gutter: one line across both. */
function across(leftText: string, rightText: string, row: number): LayoutLine {
  const left = line(leftText, 100, row)
  const right = line(rightText, 530, row)
  return {
    text: `${leftText} ${rightText}`,
    bbox: { ...left.bbox, x1: right.bbox.x1 },
    words: [...left.words!, ...right.words!],
  }
}

const texts = (lines: LayoutLine[]) => lines.map((l) => l.text)

describe('readingOrder', () => {
  it('reads lines that run across a gutter as the left column, then the right one', () => {
    const lines = [
      line('A title across the whole page above both columns', 100, 0),
      across('l1 a b c', 'r1 a b c', 1),
      across('l2 a b c', 'r2 a b c', 2),
      across('l3 a b c', 'r3 a b c', 3),
      line('l4 end', 100, 4),
      line('A closing paragraph across the page below the columns', 100, 5),
    ]
    const ordered = readingOrder(lines, WIDTH)
    expect(texts(ordered)).toEqual([
      'A title across the whole page above both columns',
      'l1 a b c',
      'l2 a b c',
      'l3 a b c',
      'l4 end',
      'r1 a b c',
      'r2 a b c',
      'r3 a b c',
      'A closing paragraph across the page below the columns',
    ])
    // Split lines are boxed on their side of the gutter; whole lines are kept as they were.
    expect(ordered[1]!.bbox).toMatchObject({ x0: 100, x1: 370 })
    expect(ordered[5]!.bbox).toMatchObject({ x0: 530, x1: 800 })
    expect(ordered[0]).toBe(lines[0])
    expect(ordered[4]).toBe(lines[4])
  })

  it('orders columns Tesseract read as separate lines, whichever it read first', () => {
    const rows = [1, 2, 3].flatMap((n) => [
      line(`r${n} a b c`, 530, n),
      line(`l${n} a b c`, 100, n),
    ])
    expect(texts(readingOrder(rows, WIDTH))).toEqual([
      'l1 a b c',
      'l2 a b c',
      'l3 a b c',
      'r1 a b c',
      'r2 a b c',
      'r3 a b c',
    ])
  })

  it('reads three columns one after another', () => {
    const rows = [1, 2, 3].map((n) => {
      const parts = [line(`a${n} x y`, 50, n), line(`b${n} x y`, 370, n), line(`c${n} x y`, 690, n)]
      return {
        text: parts.map((part) => part.text).join(' '),
        bbox: { ...parts[0]!.bbox, x1: parts[2]!.bbox.x1 },
        words: parts.flatMap((part) => part.words!),
      }
    })
    expect(texts(readingOrder(rows, WIDTH))).toEqual([
      'a1 x y',
      'a2 x y',
      'a3 x y',
      'b1 x y',
      'b2 x y',
      'b3 x y',
      'c1 x y',
      'c2 x y',
      'c3 x y',
    ])
  })

  it('leaves a single column, and a table of short cells, exactly as Tesseract read them', () => {
    const prose = [0, 1, 2, 3].map((n) => line(`prose line ${n} with several words in it`, 100, n))
    expect(readingOrder(prose, WIDTH)).toBe(prose)
    // A table across the page: aligned cells with wide gaps, but a word or two each.
    const table = [0, 1, 2, 3].map((n) => {
      const cells = [line(`Item${n}`, 100, n), line(`${n}0`, 500, n), line(`${n}1`, 800, n)]
      return {
        text: cells.map((cell) => cell.text).join(' '),
        bbox: { ...cells[0]!.bbox, x1: cells[2]!.bbox.x1 },
        words: cells.flatMap((cell) => cell.words!),
      }
    })
    expect(readingOrder(table, WIDTH)).toBe(table)
    // A financial statement: labels of several words, figures a word or two each across from
    // them; read row by row, label with its figures.
    const statement = [0, 1, 2, 3].map((n) => {
      const cells = [
        line(`Net revenue from segment ${n}`, 50, n),
        line(`$ ${n}10`, 560, n),
        line(`$ ${n}20`, 720, n),
        line(`$ ${n}30`, 880, n),
      ]
      return {
        text: cells.map((cell) => cell.text).join(' '),
        bbox: { ...cells[0]!.bbox, x1: cells[3]!.bbox.x1 },
        words: cells.flatMap((cell) => cell.words!),
      }
    })
    expect(readingOrder(statement, WIDTH)).toBe(statement)
    // Two rows side by side are not yet a column layout.
    const two = [across('l1 a b c', 'r1 a b c', 0), across('l2 a b c', 'r2 a b c', 1)]
    expect(readingOrder(two, WIDTH)).toBe(two)
  })

  it('keeps lines without words (an engine that gave none) as they were', () => {
    const bare = [{ text: 'no words here', bbox: { x0: 0, y0: 0, x1: 10, y1: 10 } }]
    expect(readingOrder(bare, WIDTH)).toBe(bare)
    expect(readingOrder([], WIDTH)).toEqual([])
  })
})
