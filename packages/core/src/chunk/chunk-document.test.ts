import { encode } from 'gpt-tokenizer/encoding/cl100k_base'
import { describe, expect, it } from 'vitest'
import { onePage } from '../extract/pages.ts'
import type { PageRange } from '../extract/types.ts'
import { chunkDocument, type Chunk } from './chunk-document.ts'

const doc = (text: string, pages: PageRange[] = onePage(text)) => ({ text, pages })

/** Deterministic prose: sentences of varied length built from a small vocabulary. */
function prose(sentences: number, seed = 1): string {
  const words = [
    'ledger',
    'duck',
    'revenue',
    'quarterly',
    'the',
    'migration',
    'policy',
    'of',
    'lake',
    'growth',
    'and',
    'risk',
  ]
  const out: string[] = []
  for (let s = 0; s < sentences; s++) {
    const length = 6 + ((s * 7 + seed) % 17)
    const sentence = Array.from(
      { length },
      (_, w) => words[(s * 31 + w * 7 + seed) % words.length]!,
    )
    out.push(`${sentence.join(' ').replace(/^./, (c) => c.toUpperCase())}.`)
  }
  return out.join(' ')
}

function expectExactOffsets(text: string, chunks: Chunk[]) {
  chunks.forEach((chunk, i) => {
    expect(chunk.ordinal).toBe(i)
    expect(text.slice(chunk.charStart, chunk.charEnd)).toBe(chunk.content)
    expect(chunk.tokenCount).toBe(encode(chunk.content).length)
  })
}

/** Every non-space character of the text is inside some chunk. */
function expectFullCoverage(text: string, chunks: Chunk[]) {
  const covered = new Uint8Array(text.length)
  for (const chunk of chunks) covered.fill(1, chunk.charStart, chunk.charEnd)
  const missed = [...text].filter((c, i) => /\S/.test(c) && !covered[i])
  expect(missed).toEqual([])
}

describe('chunkDocument', () => {
  it('keeps every chunk within the token budget, offsets exact, nothing lost', () => {
    const text = [prose(40, 1), prose(25, 2), prose(60, 3)].join('\n\n')
    const chunks = chunkDocument(doc(text), { maxTokens: 120, overlapTokens: 20 })
    expect(chunks.length).toBeGreaterThan(5)
    for (const chunk of chunks) expect(chunk.tokenCount).toBeLessThanOrEqual(120)
    // Budgets are used, not wasted: all but each section's last chunk are at least half full.
    expect(chunks.slice(0, -1).every((c) => c.tokenCount >= 60)).toBe(true)
    expectExactOffsets(text, chunks)
    expectFullCoverage(text, chunks)
  })

  it('ends chunks between sentences when sentences are shorter than the budget', () => {
    const text = prose(80)
    const chunks = chunkDocument(doc(text), { maxTokens: 100, overlapTokens: 0 })
    for (const chunk of chunks) expect(chunk.content).toMatch(/\.$/)
    for (const chunk of chunks) expect(chunk.content).toMatch(/^[A-Z]/)
  })

  it('without sentences, ends chunks at line ends (PDF table lines stay whole)', () => {
    const text = Array.from(
      { length: 120 },
      (_, i) => `Region ${i} units ${i * 37} revenue ${i * 11} million`,
    ).join('\n')
    const chunks = chunkDocument(doc(text), { maxTokens: 100, overlapTokens: 20 })
    expect(chunks.length).toBeGreaterThan(5)
    for (const chunk of chunks) {
      expect(chunk.content).toMatch(/^Region .* million$/s)
      expect(text[chunk.charEnd] ?? '\n').toBe('\n')
    }
  })

  it('does not treat abbreviations as sentence ends', () => {
    const text = `${prose(3)} Costs rose, e.g. Fuel and Dr. Smith said so. ${prose(3, 5)}`
    const chunks = chunkDocument(doc(text), { maxTokens: 40, overlapTokens: 0 })
    for (const chunk of chunks) expect(chunk.content).not.toMatch(/(e\.g\.|Dr\.)$/)
  })

  it('falls back to word breaks inside a sentence longer than the budget', () => {
    const text = Array.from({ length: 300 }, (_, i) => `word${i % 13}`).join(' ')
    const chunks = chunkDocument(doc(text), { maxTokens: 50, overlapTokens: 0 })
    expect(chunks.length).toBeGreaterThan(5)
    for (const chunk of chunks) {
      expect(chunk.tokenCount).toBeLessThanOrEqual(50)
      expect(text[chunk.charEnd] ?? ' ').toBe(' ')
      expect(text[chunk.charStart - 1] ?? ' ').toBe(' ')
    }
    expectFullCoverage(text, chunks)
  })

  it('splits a giant unbroken string (base64, a URL) and still keeps the bound', () => {
    const text = `Intro. ${'QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVo'.repeat(200)} Outro.`
    const chunks = chunkDocument(doc(text), { maxTokens: 64, overlapTokens: 8 })
    for (const chunk of chunks) expect(chunk.tokenCount).toBeLessThanOrEqual(64)
    expectExactOffsets(text, chunks)
    expectFullCoverage(text, chunks)
  })

  it('overlaps consecutive chunks by at most overlapTokens, from a sentence start', () => {
    const text = prose(120)
    const chunks = chunkDocument(doc(text), { maxTokens: 150, overlapTokens: 40 })
    for (let i = 1; i < chunks.length; i++) {
      const previous = chunks[i - 1]!
      const chunk = chunks[i]!
      expect(chunk.charStart).toBeLessThan(previous.charEnd)
      expect(chunk.charStart).toBeGreaterThan(previous.charStart)
      const shared = text.slice(chunk.charStart, previous.charEnd)
      expect(encode(shared).length).toBeLessThanOrEqual(41)
      expect(shared).toMatch(/^[A-Z]/)
    }
  })

  it('with no overlap, chunks follow each other without sharing text', () => {
    const text = prose(120)
    const chunks = chunkDocument(doc(text), { maxTokens: 150, overlapTokens: 0 })
    for (let i = 1; i < chunks.length; i++) {
      expect(text.slice(chunks[i - 1]!.charEnd, chunks[i]!.charStart)).toMatch(/^\s+$/)
    }
  })

  it('breaks at headings and carries each chunk’s heading path', () => {
    const text = [
      'Preface text.',
      '# Annual report',
      '## Revenue',
      prose(30),
      '```',
      '# not a heading inside code',
      '```',
      '### By region',
      'Europe grew.',
      '## Risks',
      'Ducks may migrate.',
    ].join('\n\n')
    const chunks = chunkDocument(doc(text), { maxTokens: 200, overlapTokens: 20 })
    expectExactOffsets(text, chunks)
    expectFullCoverage(text, chunks)
    const paths = chunks.map((c) => c.headingPath.join(' > '))
    expect(paths[0]).toBe('')
    expect(chunks[0]!.content).toBe('Preface text.')
    // "# Annual report" has no text of its own: it opens the Revenue section's first chunk.
    expect(chunks[1]!.content.startsWith('# Annual report\n\n## Revenue')).toBe(true)
    expect(paths).toContain('Annual report > Revenue')
    expect(paths.filter((p) => p === 'Annual report > Revenue').length).toBeGreaterThan(1)
    expect(chunks.at(-2)).toMatchObject({
      headingPath: ['Annual report', 'Revenue', 'By region'],
      content: '### By region\n\nEurope grew.',
    })
    expect(chunks.at(-1)).toMatchObject({
      headingPath: ['Annual report', 'Risks'],
      content: '## Risks\n\nDucks may migrate.',
    })
    expect(
      chunks.some((c) => c.content.includes('# not a heading') && c.content.includes('```')),
    ).toBe(true)
  })

  it('finds headings only in Markdown-producing formats, not in PDF or plain text', () => {
    const text = 'Shares outstanding\n# of shares 1,000\nEnd.'
    for (const format of ['pdf', 'text', 'csv'] as const) {
      const chunks = chunkDocument({ ...doc(text), format })
      expect(chunks.map((c) => [c.headingPath, c.content])).toEqual([[[], text]])
    }
    const markdown = chunkDocument({ ...doc(text), format: 'markdown' })
    expect(markdown.map((c) => c.headingPath)).toEqual([[], ['of shares 1,000']])
  })

  it('recognises setext headings, but not a thematic break or a table rule', () => {
    const text = [
      'Guide',
      '=====',
      '',
      'Intro text.',
      '',
      'Setup',
      '-----',
      '',
      'Install it.',
      '',
      '- item',
      '---',
      '',
      '| a | b |',
      '|---|---|',
      '| 1 | 2 |',
    ].join('\n')
    const chunks = chunkDocument(doc(text), { maxTokens: 200, overlapTokens: 0 })
    expect(chunks.map((c) => [c.headingPath, c.content])).toEqual([
      [['Guide'], 'Guide\n=====\n\nIntro text.'],
      [['Guide', 'Setup'], text.slice(text.indexOf('Setup'))],
    ])
  })

  it('gives each chunk the pages of its first and last characters', () => {
    const pageTexts = [prose(12, 1), prose(12, 2), prose(12, 3), prose(12, 4)]
    const pages: PageRange[] = []
    let text = ''
    pageTexts.forEach((pageText, i) => {
      if (i > 0) text += '\n\n'
      pages.push({ number: i + 1, start: text.length, end: text.length + pageText.length })
      text += pageText
    })
    const chunks = chunkDocument(doc(text, pages), { maxTokens: 100, overlapTokens: 10 })
    const pageOf = (offset: number) =>
      pages.find((p) => offset >= p.start && offset < p.end)!.number
    expect(chunks.some((c) => c.pageEnd > c.pageStart)).toBe(true)
    for (const chunk of chunks) {
      expect(chunk.pageStart).toBe(pageOf(chunk.charStart))
      expect(chunk.pageEnd).toBe(pageOf(chunk.charEnd - 1))
    }
    expect(chunks.at(-1)!.pageEnd).toBe(4)
  })

  it('returns no chunks for blank text, and refuses impossible options', () => {
    expect(chunkDocument(doc('  \n\n  '))).toEqual([])
    expect(() => chunkDocument(doc('x'), { maxTokens: 4 })).toThrow(RangeError)
    expect(() => chunkDocument(doc('x'), { maxTokens: 100, overlapTokens: 60 })).toThrow(RangeError)
  })

  it('uses 400/60 by default', () => {
    const text = prose(400)
    const chunks = chunkDocument(doc(text))
    expect(Math.max(...chunks.map((c) => c.tokenCount))).toBeLessThanOrEqual(400)
    expect(Math.max(...chunks.map((c) => c.tokenCount))).toBeGreaterThan(300)
  })
})
