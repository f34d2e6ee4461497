import { describe, expect, it } from 'vitest'
import { storableText } from './storable-text.ts'

describe('storableText', () => {
  it('replaces a lone high surrogate, at the end too', () => {
    expect(storableText('a\uD83Db')).toBe('a\uFFFDb')
    expect(storableText('end\uD83D')).toBe('end\uFFFD')
  })

  it('replaces a lone low surrogate, at the start too', () => {
    expect(storableText('a\uDE00b')).toBe('a\uFFFDb')
    expect(storableText('\uDE00start')).toBe('\uFFFDstart')
  })

  it('replaces two halves in the wrong order, each on its own', () => {
    expect(storableText('\uDE00\uD83D')).toBe('\uFFFD\uFFFD')
  })

  it('keeps valid pairs, beside lone halves too', () => {
    expect(storableText('smile 😀, 𝔸')).toBe('smile 😀, 𝔸')
    expect(storableText('\uD83D😀\uDE00')).toBe('\uFFFD😀\uFFFD')
  })

  it('replaces NUL', () => {
    expect(storableText('effec\0ve\0')).toBe('effec\uFFFDve\uFFFD')
  })

  it('keeps the length, so offsets into the text stay right', () => {
    const text = 'x\uD800y\0z\uDFFF😀'
    expect(storableText(text)).toHaveLength(text.length)
  })

  it('gives JSON that Postgres accepts: no unpaired \\u escape', () => {
    expect(JSON.stringify(storableText('a\uD800b'))).toBe('"a\uFFFDb"')
  })
})
