import { describe, expect, it } from 'vitest'
import { sha256Hex } from './hash.ts'

describe('sha256Hex', () => {
  it('matches the FIPS 180-2 test vectors', async () => {
    expect(await sha256Hex(new TextEncoder().encode('abc'))).toBe(
      'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
    )
    expect(await sha256Hex(new Uint8Array())).toBe(
      'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
    )
  })

  it('hashes a view, not its whole underlying buffer', async () => {
    const buffer = new TextEncoder().encode('xxabcxx')
    expect(await sha256Hex(buffer.subarray(2, 5))).toBe(
      await sha256Hex(new TextEncoder().encode('abc')),
    )
  })
})
