import { describe, expect, it } from 'vitest'
import { pageAtLine, parsePageNumber } from './page-at-line'

describe('pageAtLine', () => {
  const tops = [0, 1000, 2000, 3000]

  it('is the last page whose top has passed the line', () => {
    expect(pageAtLine(tops, 50)).toBe(1)
    expect(pageAtLine(tops, 1000)).toBe(2)
    expect(pageAtLine(tops, 2999)).toBe(3)
    expect(pageAtLine(tops, 9000)).toBe(4)
  })

  it('is the first page before any page has reached the line', () => {
    expect(pageAtLine([200, 1200], 80)).toBe(1)
    expect(pageAtLine([], 80)).toBe(1)
  })

  it('follows scrolling: tops move up as the reader scrolls down', () => {
    const scrolled = tops.map((top) => top - 1500)
    expect(pageAtLine(scrolled, 64)).toBe(2)
  })

  it('is the last page once scrolled to the very end, but not when all fits unscrolled', () => {
    const end = [-2800, -1800, -800, 200]
    expect(pageAtLine(end, 64)).toBe(3)
    expect(pageAtLine(end, 64, true)).toBe(4)
    expect(pageAtLine([100, 300, 500], 64, true)).toBe(1)
  })
})

describe('parsePageNumber', () => {
  it('accepts a page of the document', () => {
    expect(parsePageNumber('7', 200)).toBe(7)
    expect(parsePageNumber(' 200 ', 200)).toBe(200)
  })

  it('refuses anything else', () => {
    for (const input of ['0', '201', '-3', '2.5', 'abc', '', '1e2'])
      expect(parsePageNumber(input, 200)).toBeNull()
  })
})
