import { describe, expect, it } from 'vitest'
import { splitPassage } from './split-passage'

describe('splitPassage', () => {
  const text = 'Alpha beta. Gamma delta. Epsilon.'

  it('cuts the text so the passage is exactly the slice', () => {
    const parts = splitPassage(text, 12, 24)
    expect(parts.passage).toBe(text.slice(12, 24))
    expect(parts.before + parts.passage + parts.after).toBe(text)
  })

  it('clamps offsets that run past the text', () => {
    expect(splitPassage(text, 30, 99)).toEqual({
      before: text.slice(0, 30),
      passage: 'on.',
      after: '',
    })
    expect(splitPassage(text, -5, 5).passage).toBe('Alpha')
    expect(splitPassage(text, 20, 10)).toEqual({
      before: text.slice(0, 20),
      passage: '',
      after: text.slice(20),
    })
  })
})
