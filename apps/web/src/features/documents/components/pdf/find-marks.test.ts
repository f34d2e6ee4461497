import { describe, expect, it } from 'vitest'
import { markOcrFound } from './find-marks'

// Each character as wide as any other: the proportions are then plain to check (the browser
// measures in a serif face; the e2e suite looks at that).
const byCount = (text: string) => text.length

const lines = [
  { text: 'Typewriters', box: [0.1, 0.1, 0.3, 0.13] as [number, number, number, number] },
  {
    text: 'The Sholes and Glidden',
    box: [0.1, 0.2, 0.54, 0.24] as [number, number, number, number],
  },
]

describe('markOcrFound', () => {
  it('boxes each match over its share of the OCR line, and marks the current one', () => {
    const page = document.createElement('section')
    const current = markOcrFound(
      page,
      lines,
      [
        { item: 1, start: 4, end: 10, current: true },
        { item: 0, start: 0, end: 11, current: false },
      ],
      byCount,
    )
    const marks = [...page.querySelectorAll<HTMLElement>('.pdf-ocr-found .pdf-found')]
    expect(marks).toHaveLength(2)
    expect(current).toBe(marks[0])
    expect(current!.className).toBe('pdf-found pdf-found-current')
    // "Sholes" is characters 4–10 of a 22-character line 44% of the page wide.
    const { left, top, width, height } = current!.style
    expect(parseFloat(left)).toBeCloseTo(18, 5)
    expect(parseFloat(top)).toBeCloseTo(20, 5)
    expect(parseFloat(width)).toBeCloseTo(12, 5)
    expect(parseFloat(height)).toBeCloseTo(4, 5)
    // A whole line is its whole box.
    expect(parseFloat(marks[1]!.style.left)).toBeCloseTo(10, 5)
    expect(parseFloat(marks[1]!.style.width)).toBeCloseTo(20, 5)
  })

  it('replaces the last search’s marks, and clears them when nothing is found', () => {
    const page = document.createElement('section')
    markOcrFound(page, lines, [{ item: 0, start: 0, end: 4, current: false }], byCount)
    const next = [{ item: 1, start: 0, end: 3, current: false }]
    expect(markOcrFound(page, lines, next, byCount)).toBeNull()
    expect(page.querySelectorAll('.pdf-ocr-found')).toHaveLength(1)
    expect(page.querySelectorAll('.pdf-found')).toHaveLength(1)
    markOcrFound(page, lines, [], byCount)
    expect(page.querySelector('.pdf-ocr-found')).toBeNull()
  })

  it('skips a part naming no line rather than failing', () => {
    const page = document.createElement('section')
    const stray = [{ item: 7, start: 0, end: 2, current: true }]
    expect(markOcrFound(page, lines, stray, byCount)).toBeNull()
    expect(page.querySelectorAll('.pdf-found')).toHaveLength(0)
  })
})
