import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { htmlToDocument } from '../extract/html.ts'
import { sharedData } from '../testing/shared-data.ts'
import { plainLinks } from './plain-links.ts'

describe('plainLinks', () => {
  it('shows links, images and autolinks as their text', () => {
    expect(
      plainLinks(
        'See [the guide](https://example.com/guide "Guide") and ![a duck](duck.png), ' +
          '[Duck (bird)](https://en.wikipedia.org/wiki/Duck_(bird)), [ref][1], <https://x.org/a>.',
      ),
    ).toBe('See the guide and a duck, Duck (bird), ref, https://x.org/a.')
    expect(plainLinks('a hen.[\\[3\\]](#cite_note-3) Next')).toBe('a hen.[3] Next')
  })

  it('cleans the halves of links cut by an excerpt', () => {
    expect(plainLinks('guide](https://example.com/guide) explains it')).toBe('guide explains it')
    expect(plainLinks('it is in [the guide](https://exa')).toBe('it is in the guide')
    expect(plainLinks('as shown in [1]')).toBe('as shown in [1]')
  })

  it('leaves brackets that are no links alone', () => {
    const text = 'Values [1, 2] and (a) [b] c, x < y > z, <b>bold</b> and a@b'
    expect(plainLinks(text)).toBe(text)
  })

  it('leaves no link syntax in the text of a real HTML page full of links', async () => {
    const file = fileURLToPath(new URL('docling-testdata/html/sources/wiki_duck.html', sharedData))
    const { markdown } = await htmlToDocument(readFileSync(file, 'utf8'))
    expect(markdown).toMatch(/\]\(http/)
    const plain = plainLinks(markdown)
    expect(plain).not.toMatch(/\]\(|\[[^\]]*\]\(/)
    expect(plain).toContain('Duck')
  })
})
