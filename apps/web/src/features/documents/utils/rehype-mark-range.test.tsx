import { renderToStaticMarkup } from 'react-dom/server'
import Markdown from 'react-markdown'
import remarkGfm from 'remark-gfm'
import { describe, expect, it } from 'vitest'
import { rehypeMarkRange } from './rehype-mark-range'

function render(markdown: string, start: number, end: number) {
  const html = renderToStaticMarkup(
    <Markdown remarkPlugins={[remarkGfm]} rehypePlugins={[rehypeMarkRange({ start, end })]}>
      {markdown}
    </Markdown>,
  )
  const marks = [...html.matchAll(/<mark[^>]*>([^<]*)<\/mark>/g)].map((m) => m[1])
  return { html, marks }
}

describe('rehypeMarkRange', () => {
  it('marks exactly the source range inside one paragraph', () => {
    const md = '# Title\n\nThe quick brown fox jumps.'
    const start = md.indexOf('brown')
    const { html, marks } = render(md, start, start + 'brown fox'.length)
    expect(marks).toEqual(['brown fox'])
    expect(html).toContain('<p>The quick <mark data-passage="start">brown fox</mark> jumps.</p>')
  })

  it('marks across headings, emphasis and table cells, the first mark flagged', () => {
    const md = '## Results\n\nSome **bold** words.\n\n| a | b |\n| - | - |\n| one | two |\n\nAfter.'
    const start = md.indexOf('Results')
    const end = md.indexOf('two') + 3
    const { html, marks } = render(md, start, end)
    expect(marks).toEqual(['Results', 'Some ', 'bold', ' words.', 'a', 'b', 'one', 'two'])
    expect(html.match(/data-passage/g)).toHaveLength(1)
    expect(html).toContain('<p>After.</p>')
  })

  it('marks nothing without a range or outside the text', () => {
    expect(render('Just text.', 50, 60).marks).toEqual([])
    const html = renderToStaticMarkup(
      <Markdown rehypePlugins={[rehypeMarkRange(null)]}>{'Just text.'}</Markdown>,
    )
    expect(html).toBe('<p>Just text.</p>')
  })

  it('marks a text node with escapes whole, since its offsets do not map one to one', () => {
    const md = 'Price 5 \\* 3 &amp; more'
    expect(render(md, 6, 8).marks).toEqual(['Price 5 * 3 &amp; more'])
  })
})
