import { describe, expect, it } from 'vitest'
import { pageLabel, parseSnippet } from './snippet'

describe('parseSnippet', () => {
  it('splits marked runs from plain ones and decodes the escaped text', () => {
    expect(parseSnippet('a &lt;b&gt; &amp;amp; <mark>fern</mark> … <mark>moss</mark>')).toEqual([
      { text: 'a <b> &amp; ', match: false },
      { text: 'fern', match: true },
      { text: ' … ', match: false },
      { text: 'moss', match: true },
    ])
  })

  it('leaves text that only looks like markup as text', () => {
    expect(parseSnippet('&lt;mark&gt;x&lt;/mark&gt; <script>')).toEqual([
      { text: '<mark>x</mark> <script>', match: false },
    ])
  })
})

describe('pageLabel', () => {
  it('names one page, a range, or nothing', () => {
    expect(pageLabel(3, 3)).toBe('p. 3')
    expect(pageLabel(3, null)).toBe('p. 3')
    expect(pageLabel(3, 5)).toBe('pp. 3–5')
    expect(pageLabel(null, null)).toBeNull()
  })
})
