import { describe, expect, it } from 'vitest'
import { parseSnippet } from './snippet'

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

  it('reads Markdown links as their text, even with a match inside', () => {
    const snippet =
      '… see [the <mark>duck</mark> guide](https://example.com/duck_(bird)) and ![x](y.png)'
    expect(parseSnippet(snippet).map((part) => part.text)).toEqual([
      '… see the ',
      'duck',
      ' guide and x',
    ])
  })

  it('keeps a line break between records, rows and paragraphs, and wraps the rest', () => {
    const snippet =
      'vendor: Acme; <mark>owner</mark>: Ada\n\nvendor: Beta; <mark>owner</mark>: Bob\n\n' +
      'A PDF line\nwrapped here.\n| a | b |\n| 1 | 2 |'
    expect(
      parseSnippet(snippet)
        .map((part) => part.text)
        .join(''),
    ).toBe(
      'vendor: Acme; owner: Ada\nvendor: Beta; owner: Bob\nA PDF line wrapped here.\n| a | b |\n| 1 | 2 |',
    )
  })

  it('shows Markdown headings and list items as lines of their own, without their markers', () => {
    const snippet =
      "# Let's swim!\nFirst lay down in <mark>water</mark>:\n- Relax\n* Paddle\n2. Eat\n## <mark>Water</mark> safety"
    expect(
      parseSnippet(snippet)
        .map((part) => part.text)
        .join(''),
    ).toBe("Let's swim!\nFirst lay down in water:\n• Relax\n• Paddle\n2. Eat\nWater safety")
  })
})
