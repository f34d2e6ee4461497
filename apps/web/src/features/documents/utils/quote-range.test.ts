import { describe, expect, it } from 'vitest'
import { quoteRange } from './quote-range'

const passage = { content: 'Ferns dry flat. Mosses stay loose. Lichens crumble.', char_start: 100 }

describe('quoteRange', () => {
  it('places the quote by its document offsets', () => {
    expect(quoteRange(passage, { start: 116, end: 134 }, null)).toEqual({ start: 16, end: 34 })
  })

  it('finds the quote by its text when the offsets do not fit the passage', () => {
    expect(quoteRange(passage, { start: 10, end: 20 }, 'Mosses stay loose.')).toEqual({
      start: 16,
      end: 34,
    })
    expect(
      quoteRange({ ...passage, char_start: null }, null, 'Ferns dry flat. … Lichens crumble.'),
    ).toEqual({ start: 0, end: 51 })
  })

  it('marks nothing when the passage no longer holds the quote', () => {
    expect(quoteRange(passage, null, 'Seaweed is rinsed.')).toBeNull()
    expect(quoteRange(passage, null, null)).toBeNull()
  })
})
