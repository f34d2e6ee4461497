import { describe, expect, it } from 'vitest'
import { splitSentences } from './sentences.ts'
import { stem } from './stem.ts'
import { contentWords } from './words.ts'

describe('splitSentences', () => {
  it('splits at terminal punctuation and keeps abbreviations, initials and decimals whole', () => {
    const text =
      'Ferns were pressed. Samples, e.g. mosses, were sent to J. Smith at 2.5 km. Why? "Fine!" Done'
    expect(splitSentences(text).map((s) => s.text)).toEqual([
      'Ferns were pressed.',
      'Samples, e.g. mosses, were sent to J. Smith at 2.5 km.',
      'Why?',
      '"Fine!"',
      'Done',
    ])
  })

  it('gives offsets into the text', () => {
    const text = '  First one.   Second (aside).\n\nThird'
    for (const s of splitSentences(text)) expect(text.slice(s.start, s.end)).toBe(s.text)
    expect(splitSentences(text)).toHaveLength(3)
  })

  it('does not split before a lower-case word, and splits at paragraphs and list items', () => {
    const text = 'Smith et al. showed it. Heading\n\nBody text\n- one\n- two'
    expect(splitSentences(text).map((s) => s.text)).toEqual([
      'Smith et al. showed it.',
      'Heading',
      'Body text',
      '- one',
      '- two',
    ])
    expect(splitSentences('the value was 3. then it fell')).toHaveLength(1)
  })

  it('makes each table row and each CSV record one sentence, never two nor half of one', () => {
    const table = 'Vendors:\n| vendor | owner |\n| --- | --- |\n| Acme | Ada |\n| Beta | Bob |'
    expect(splitSentences(table).map((s) => s.text)).toEqual([
      'Vendors:',
      '| vendor | owner |',
      '| --- | --- |',
      '| Acme | Ada |',
      '| Beta | Bob |',
    ])
    const csv =
      'vendor: Acme; owner: Ada; note: Paid. Next review in May\n\nvendor: Beta; owner: Bob'
    expect(splitSentences(csv).map((s) => s.text)).toEqual([
      'vendor: Acme; owner: Ada; note: Paid. Next review in May',
      'vendor: Beta; owner: Bob',
    ])
    // Prose with a colon and a semicolon still splits at its full stops.
    expect(splitSentences('Note: it rained. Then it snowed.')).toHaveLength(2)
  })

  it('answers nothing for blank text', () => {
    expect(splitSentences('  \n ')).toEqual([])
  })
})

describe('stem and contentWords', () => {
  it('stems as Porter does', () => {
    const cases = {
      caresses: 'caress',
      ponies: 'poni',
      hopping: 'hop',
      relational: 'relat',
      generalizations: 'gener',
      adjustment: 'adjust',
      dried: 'dri',
      drying: 'dri',
      happy: 'happi',
    }
    for (const [word, expected] of Object.entries(cases)) expect(stem(word)).toBe(expected)
  })

  it('drops stop words and punctuation and keeps numbers', () => {
    expect(contentWords("The ship's crew anchored in 1848, near the estuaries.")).toEqual([
      'ship',
      'crew',
      'anchor',
      '1848',
      'near',
      'estuari',
    ])
  })
})
