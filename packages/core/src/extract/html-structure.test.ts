import { describe, expect, it } from 'vitest'
import { extractDocument } from './extract-document.ts'

const extract = (html: string) =>
  extractDocument({ bytes: new TextEncoder().encode(html), fileName: 'deep.html' })

describe('HTML without its outer tags', () => {
  it('reads a file that starts at <head> or <body>, as browsers do', async () => {
    const head = await extract(
      '<head><title>Ledger</title></head><body><p>Entries for May.</p></body>',
    )
    expect(head).toMatchObject({ text: 'Entries for May.', title: 'Ledger' })
    const body = await extract('<!doctype html><body><p>Entries for June.</p></body>')
    expect(body.text).toBe('Entries for June.')
  })
})

describe('deeply nested HTML', () => {
  it('extracts a 5,000-deep file with every word, the shallow part still formatted', async () => {
    const depth = 5000
    const html = `<html><body><h1>Field notes</h1><p>Before the <b>deep</b> part.</p>${'<div>'.repeat(depth)}<p>first deep</p><p>second deep</p><script>hidden()</script>${'</div>'.repeat(depth)}<p>After it.</p></body></html>`
    const { text } = await extract(html)
    expect(text).toContain('# Field notes')
    expect(text).toContain('Before the **deep** part.')
    expect(text).toMatch(/first deep\s+second deep/)
    expect(text).toContain('After it.')
    expect(text).not.toContain('hidden()')
  })

  it('keeps the words of deep sibling elements apart, in order', async () => {
    const cells = Array.from({ length: 50 }, (_, i) => `<p>w${i}</p>`).join('')
    const html = `<html><body>${'<section>'.repeat(300)}${cells}${'</section>'.repeat(300)}</body></html>`
    const words = (await extract(html)).text.split(/\s+/).filter(Boolean)
    expect(words).toEqual(Array.from({ length: 50 }, (_, i) => `w${i}`))
  })
})
