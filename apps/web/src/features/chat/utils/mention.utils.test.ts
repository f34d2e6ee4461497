import { describe, expect, it } from 'vitest'
import { activeMention, matchMentions, type MentionOption, withoutMention } from './mention'

const options: MentionOption[] = [
  { kind: 'document', id: 'd1', name: 'Voyage log.md' },
  { kind: 'document', id: 'd2', name: 'Board minutes 2023.pdf' },
  { kind: 'collection', id: 'c1', name: 'Board' },
  { kind: 'collection', id: 'c2', name: 'Études' },
]

describe('mentions', () => {
  it('are found at the caret after a space or at the start, not inside a word', () => {
    expect(activeMention('@voy', 4)).toEqual({ start: 0, query: 'voy' })
    expect(activeMention('compare @board min', 18)).toEqual({ start: 8, query: 'board min' })
    expect(activeMention('mail me@example.com', 19)).toBeNull()
    expect(activeMention('no mention here', 15)).toBeNull()
    expect(activeMention('@ spaced', 8)).toBeNull()
    expect(activeMention('@line\nbreak', 11)).toBeNull()
    // Only up to the caret.
    expect(activeMention('@voyage and more', 3)).toEqual({ start: 0, query: 'vo' })
  })

  it('match names by what they contain, those starting with it first, accents aside', () => {
    expect(matchMentions(options, 'board').map((o) => o.id)).toEqual(['c1', 'd2'])
    expect(matchMentions(options, 'LOG').map((o) => o.id)).toEqual(['d1'])
    expect(matchMentions(options, 'etu').map((o) => o.id)).toEqual(['c2'])
    expect(matchMentions(options, '')).toHaveLength(4)
    expect(matchMentions(options, 'zzz')).toEqual([])
  })

  it('leave the question without the typed mention', () => {
    const text = 'compare @voy with the minutes'
    expect(withoutMention(text, { start: 8, query: 'voy' })).toEqual({
      text: 'compare with the minutes',
      caret: 8,
    })
    expect(withoutMention('@voy', { start: 0, query: 'voy' })).toEqual({ text: '', caret: 0 })
  })
})
