import { describe, expect, it } from 'vitest'
import { joinPages } from '../extract/pages.ts'
import { repairLigatures } from './repair-ligatures.ts'

describe('repairLigatures', () => {
  it('picks the spelling the document uses elsewhere, and moves the pages after it', () => {
    const { text, pages } = joinPages([
      'The effective date. After the meeting, the Committee met.',
      'Effec\0ve a\0er the Commi\0ee met.',
      'Last page.',
    ])
    const repaired = repairLigatures(text, pages)
    expect(repaired.text.split('\n\n')[1]).toBe('Effective after the Committee met.')
    expect(repaired.pages.map((p) => repaired.text.slice(p.start, p.end))).toEqual([
      'The effective date. After the meeting, the Committee met.',
      'Effective after the Committee met.',
      'Last page.',
    ])
  })

  it('leaves a NUL when no spelling is known, or when a word has more than two', () => {
    const { text, pages } = joinPages(['Zy\0qx and \0 alone, ef\0ec\0\0ve; effective.'])
    expect(repairLigatures(text, pages)).toEqual({ text, pages })
  })

  it('reads two NULs in one word', () => {
    const { text, pages } = joinPages(['attribution. A\0ribu\0on.'])
    expect(repairLigatures(text, pages).text).toBe('attribution. Attribution.')
  })

  it('reads U+FFFD as a lost glyph too, and spells out ligatures of words in capitals', () => {
    const { text, pages } = joinPages(['Official effective date. O\uFFFDcial EFFEC\0VE DATE.'])
    expect(repairLigatures(text, pages).text).toBe(
      'Official effective date. Official EFFECTIVE DATE.',
    )
  })

  it('spells a word the document lacks after the nearest word of its family', () => {
    // "meetings" and "meettings" share the stem of "meeting"; "meetings" is the nearer.
    const { text, pages } = joinPages(['One meeting; few attend.', 'Two mee\0ngs, a\0ending them.'])
    expect(repairLigatures(text, pages).text).toBe(
      'One meeting; few attend.\n\nTwo meetings, attending them.',
    )
  })

  it('sets a common prefix aside to find the family', () => {
    const { text, pages } = joinPages(['Board elections.', 'Upon reelec\0on.'])
    expect(repairLigatures(text, pages).text).toBe('Board elections.\n\nUpon reelection.')
  })

  it('leaves a lost glyph when two readings are as likely', () => {
    // "after" (ft) and "atter" (tt) are both written out once: no clear winner.
    const { text, pages } = joinPages(['after atter a\0er'])
    expect(repairLigatures(text, pages).text).toBe('after atter a\0er')
  })

  it('returns text without NUL as it is', () => {
    const pages = [{ number: 1, start: 0, end: 5 }]
    const result = repairLigatures('plain', pages)
    expect(result.pages).toBe(pages)
  })
})
