import { encode } from 'gpt-tokenizer/encoding/cl100k_base'
import { describe, expect, it } from 'vitest'
import { countTokens, mayHoldLongRun } from './tokens.ts'

const prose =
  'Net sales increased 12% to $1,234 million in 2022, driven by volume; see Note 7 (page 45). '

describe('mayHoldLongRun', () => {
  it('is false for prose and for runs of 256 alike characters: those are counted exactly', () => {
    const text = prose.repeat(40)
    expect(mayHoldLongRun(text)).toBe(false)
    expect(countTokens(text)).toBe(encode(text).length)
    for (const c of [' ', 'a', '-', '\n'])
      expect(mayHoldLongRun(`x1${c.repeat(256)}1x`)).toBe(false)
    // A digit ends every kind of run.
    expect(mayHoldLongRun(`${'a'.repeat(200)}7${'a'.repeat(200)}`)).toBe(false)
  })

  it('is true wherever the exact scan slices a run, letters and spaces outside ASCII too', () => {
    const runs = ['a', ' ', '.', '\t', 'é', 'ж', '\u00a0', '\u2003', '—', '中', '𝐀', 'aé']
    for (const c of runs) {
      const text = `${prose}${c.repeat(300)}${prose}`
      expect(mayHoldLongRun(text), JSON.stringify(c)).toBe(true)
    }
  })

  it('keeps an over-long run cheap to count: 2 MB of spaces in slices', () => {
    const spaces = ' '.repeat(2 ** 21)
    expect(mayHoldLongRun(spaces)).toBe(true)
    expect(countTokens(spaces)).toBeGreaterThan(2 ** 21 / 256)
  })
})
