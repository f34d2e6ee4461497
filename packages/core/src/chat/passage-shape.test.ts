import { describe, expect, it } from 'vitest'
import { isBulky, isLongList, isTableRow } from './passage-shape.ts'

describe('passage shapes', () => {
  it('knows a table row, by pipes or tabs', () => {
    expect(isTableRow('| Tier 1 | 12.5% |')).toBe(true)
    expect(isTableRow('Tier 1\t12.5%\t13.0%')).toBe(true)
    expect(isTableRow('Use a | b or c.')).toBe(false)
  })

  it('knows a list longer than a few lines or items, and a sentence too long to quote', () => {
    expect(isLongList('- a\n- b\n- c\n- d')).toBe(true)
    expect(
      isLongList('Acme, Beta, Gamma, Delta, Epsilon, Zeta, Eta, Theta, Iota, Kappa and Lambda.'),
    ).toBe(true)
    expect(isLongList(`${'word '.repeat(90)}.`)).toBe(true)
    expect(isBulky('Ferns, mosses and lichens were pressed.')).toBe(false)
  })
})
