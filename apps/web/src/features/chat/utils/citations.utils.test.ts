import { describe, expect, it } from 'vitest'
import { citationLabel, citeNumber, linkCitations, safeUrl } from './citations'

describe('linkCitations', () => {
  it('links single markers and splits groups', () => {
    expect(linkCitations('Ferns dry slowly [1]. Mosses too [2, 3].')).toBe(
      'Ferns dry slowly [1](#cite-1). Mosses too [2](#cite-2)[3](#cite-3).',
    )
  })

  it('links markers before a colon or another marker', () => {
    expect(linkCitations('Try not to drown [1]: swim [2][3]')).toBe(
      'Try not to drown [1](#cite-1): swim [2](#cite-2)[3](#cite-3)',
    )
  })

  it('leaves code, real links, reference definitions and non-numbers alone', () => {
    const text = 'See `a[1]` and [2](https://x.test) or [note]\n [3]: def\n```\nx[4]\n```\nok [5]'
    expect(linkCitations(text)).toBe(
      'See `a[1]` and [2](https://x.test) or [note]\n [3]: def\n```\nx[4]\n```\nok [5](#cite-5)',
    )
  })

  it('leaves an unterminated fence (mid-stream) alone', () => {
    expect(linkCitations('a [1]\n```\nb [2]')).toBe('a [1](#cite-1)\n```\nb [2]')
  })
})

describe('citeNumber', () => {
  it('reads chip anchors only', () => {
    expect(citeNumber('#cite-12')).toBe(12)
    expect(citeNumber('#cite-x')).toBeNull()
    expect(citeNumber('https://example.com')).toBeNull()
    expect(citeNumber(undefined)).toBeNull()
  })
})

describe('safeUrl', () => {
  it('keeps http(s), mailto and chip anchors, and drops the rest', () => {
    expect(safeUrl('https://example.com/a')).toBe('https://example.com/a')
    expect(safeUrl('mailto:a@example.com')).toBe('mailto:a@example.com')
    expect(safeUrl('#cite-1')).toBe('#cite-1')
    expect(safeUrl('javascript:alert(1)')).toBeUndefined()
    expect(safeUrl('data:text/html,x')).toBeUndefined()
    expect(safeUrl('/relative')).toBeUndefined()
  })
})

describe('labels', () => {
  it('names pages, slides and unsupported citations', () => {
    const citation = { n: 2, chunk_id: 'c', document_id: 'd', title: 'Notes', page_start: 3 }
    expect(citationLabel(citation, 'pdf')).toBe('Source 2: Notes, p. 3')
    expect(citationLabel(citation, 'pptx')).toBe('Source 2: Notes, slide 3')
    expect(citationLabel(citation, 'xlsx')).toBe('Source 2: Notes')
    expect(citationLabel({ ...citation, page_start: null, supported: false }, 'pdf')).toBe(
      'Source 2: Notes, not supported by the cited passage',
    )
  })
})
