import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { chunkDocument } from '../chunk/chunk-document.ts'
import { buildPdf } from '../testing/build-pdf.ts'
import { sharedData } from '../testing/shared-data.ts'
import { extractDocument } from './extract-document.ts'

const utf8 = (text: string) => new TextEncoder().encode(text)
const extract = (bytes: Uint8Array, fileName: string, mimeType?: string) =>
  extractDocument({ bytes, fileName, ...(mimeType ? { mimeType } : {}) })

describe('plain text encodings', () => {
  const text = 'Café — naïve “quotes”\nsecond line'

  it('UTF-8 without and with BOM', async () => {
    expect((await extract(utf8(text), 'a.txt')).text).toBe(text)
    const withBom = await extract(new Uint8Array([0xef, 0xbb, 0xbf, ...utf8(text)]), 'a.txt')
    expect(withBom.text).toBe(text)
    expect(withBom.warnings).toEqual([])
  })

  it('UTF-16 LE and BE with BOM', async () => {
    const units = [...text].map((c) => c.charCodeAt(0))
    const le = new Uint8Array([0xff, 0xfe, ...units.flatMap((u) => [u & 0xff, u >> 8])])
    const be = new Uint8Array([0xfe, 0xff, ...units.flatMap((u) => [u >> 8, u & 0xff])])
    expect((await extract(le, 'a.txt')).text).toBe(text)
    expect((await extract(be, 'a.txt')).text).toBe(text)
  })

  it('windows-1252 when the bytes are not UTF-8, with a warning', async () => {
    // "Café – €5" in windows-1252: é = E9, en dash = 96, euro = 80.
    const bytes = new Uint8Array([0x43, 0x61, 0x66, 0xe9, 0x20, 0x96, 0x20, 0x80, 0x35])
    const doc = await extract(bytes, 'a.txt')
    expect(doc.text).toBe('Café – €5')
    expect(doc.warnings).toEqual(['not UTF-8: decoded as windows-1252'])
  })

  it('honours a declared legacy charset (HTML meta or MIME type) for non-UTF-8 bytes', async () => {
    const privet = [0xcf, 0xf0, 0xe8, 0xe2, 0xe5, 0xf2] // "Привет" in windows-1251
    const html = new Uint8Array([
      ...utf8('<html><head><meta charset="windows-1251"></head><body><p>'),
      ...privet,
      ...utf8('</p></body></html>'),
    ])
    expect((await extract(html, 'ru.html')).text).toBe('Привет')
    const text = new Uint8Array(privet)
    expect((await extract(text, 'ru.txt', 'text/plain; charset=windows-1251')).text).toBe('Привет')
    // Without a declaration the same bytes are read as windows-1252.
    expect((await extract(text, 'ru.txt')).text).toBe('Ïðèâåò')
  })

  it('CRLF line ends become LF; one page covers the text', async () => {
    const doc = await extract(utf8('one\r\ntwo\rthree'), 'a.txt')
    expect(doc.text).toBe('one\ntwo\nthree')
    expect(doc.pages).toEqual([{ number: 1, start: 0, end: doc.text.length }])
    expect(doc.format).toBe('text')
  })
})

describe('CSV', () => {
  it('renders rows as records with their header, parsing quoted fields', async () => {
    const csv = 'name,city,note\r\nAda,"London, UK","said ""hi""\nthen left"\nBob,Paris,\n'
    const doc = await extract(utf8(csv), 'people.csv')
    expect(doc.format).toBe('csv')
    expect(doc.text).toBe(
      'name: Ada; city: London, UK; note: said "hi" then left\n\nname: Bob; city: Paris',
    )
  })

  it('detects semicolon delimiters and warns about ragged rows', async () => {
    const doc = await extract(utf8('a;b\n1;2\n3;4;5\n'), 'x.csv')
    expect(doc.text).toBe('a: 1; b: 2\n\na: 3; b: 4; column 3: 5')
    expect(doc.warnings).toEqual(["1 rows do not have the header's 2 columns"])
  })
})

describe('Markdown and HTML', () => {
  it('keeps Markdown as is and takes the first heading as title', async () => {
    const markdown = 'Intro line\n\n# Guide\n\nText | with pipe\n'
    const doc = await extract(utf8(markdown), 'guide.md')
    expect(doc).toMatchObject({ text: markdown, format: 'markdown', title: 'Guide' })
  })

  it('uses the readable article of a long page, dropping navigation', async () => {
    const paragraph = (n: number) =>
      `<p>Paragraph ${n} of the article explains the migration of ducks across the lakes of the north, with enough words to count as real content for a reader.</p>`
    const html = `<html><head><title>Duck migration</title></head><body>
      <nav><a href="/">Home</a> <a href="/about">About us</a></nav>
      <article><h1>Duck migration</h1>${[1, 2, 3, 4, 5, 6].map(paragraph).join('')}</article>
      <footer>Copyright footer links</footer></body></html>`
    const doc = await extract(utf8(html), 'page.html')
    expect(doc.title).toBe('Duck migration')
    expect(doc.text).toContain('Paragraph 6 of the article')
    expect(doc.text).not.toContain('About us')
    expect(doc.text).not.toContain('Copyright footer')
  })

  it('falls back to the whole body of a short page, tables as GFM with spans', async () => {
    const html = `<h2>Prices</h2><table>
      <tr><th>Item</th><th colspan="2">Cost</th></tr>
      <tr><td rowspan="2">Tea</td><td>1</td><td>2</td></tr>
      <tr><td>3</td><td></td></tr></table><p>After | table</p>`
    const doc = await extract(utf8(html), 'short.htm')
    expect(doc.text).toBe(
      [
        '## Prices',
        '',
        '| Item | Cost | Cost |',
        '| --- | --- | --- |',
        '| Tea | 1 | 2 |',
        '| Tea | 3 | |',
        '',
        'After | table',
      ].join('\n'),
    )
  })
})

describe('DOCX', () => {
  it('keeps the title, headings, lists and tables as Markdown', async () => {
    const path = fileURLToPath(
      new URL('docling-testdata/docx/sources/word_sample.docx', sharedData),
    )
    const doc = await extract(new Uint8Array(readFileSync(path)), 'word_sample.docx')
    expect(doc).toMatchObject({ format: 'docx', title: 'Swimming in the lake', warnings: [] })
    expect(doc.text).toContain('\n# Let’s swim!\n')
    expect(doc.text).toContain('\n## Let’s eat\n')
    expect(doc.text).toMatch(/^- +Paddle about$/m)
    expect(doc.text).toMatch(/^2\. +Don’t forget to drink water$/m)
    expect(doc.text).toContain(
      [
        '| | Food | Calories per portion |',
        '| --- | --- | --- |',
        '| Leaves | Ash, Elm, Maple | 50 |',
      ].join('\n'),
    )
    const paths = chunkDocument(doc).map((chunk) => chunk.headingPath)
    expect(paths).toContainEqual(['Let’s swim!', 'Let’s eat'])
  })
})

describe('PDF text', () => {
  it('maps each page to its characters and repairs hyphenation at line ends', async () => {
    const bytes = buildPdf({ pages: ['The infor-\nmation is well-\nKnown.', 'Second page.'] })
    const doc = await extract(bytes, 'a.pdf')
    expect(doc.text).toBe('The information is well-\nKnown.\n\nSecond page.')
    expect(doc.pages.map((p) => doc.text.slice(p.start, p.end))).toEqual([
      'The information is well-\nKnown.',
      'Second page.',
    ])
  })

  it('drops running headers and footers repeated on most pages', async () => {
    const pages = [1, 2, 3, 4].map(
      (n) => `ACME Corp annual report\nBody text of page ${n}.\nPage ${n} of 4`,
    )
    const doc = await extract(buildPdf({ pages }), 'r.pdf')
    expect(doc.text).toBe([1, 2, 3, 4].map((n) => `Body text of page ${n}.`).join('\n\n'))
    expect(doc.warnings).toContain('dropped 8 running header/footer lines')
  })

  it('drops alternating left/right page headers of a book, each on under half the pages', async () => {
    const pages = ['Title page\nA Book\nBy someone']
    for (let n = 2; n <= 7; n++) {
      pages.push(`${n % 2 ? 'A Book' : 'Chapter One'}\nStory line ${n}.\n${n}`)
    }
    const doc = await extract(buildPdf({ pages }), 'book.pdf')
    expect(doc.text.split('\n\n').slice(1)).toEqual(
      [2, 3, 4, 5, 6, 7].map((n) => `Story line ${n}.`),
    )
  })

  it('keeps repeated lines of a short (two-page) file', async () => {
    const doc = await extract(buildPdf({ pages: ['Header\nA.', 'Header\nB.'] }), 'two.pdf')
    expect(doc.text).toBe('Header\nA.\n\nHeader\nB.')
  })
})
