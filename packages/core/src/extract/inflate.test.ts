import { constants, deflateRawSync, deflateSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { inflate } from './inflate.ts'

/** Bytes a linear congruential generator draws, from a fixed seed. */
function noise(length: number, seed = 7): Uint8Array {
  const out = new Uint8Array(length)
  for (let i = 0, x = seed; i < length; i++) {
    x = (x * 1103515245 + 12345) >>> 0
    out[i] = x >>> 24
  }
  return out
}

/** A page's content stream as producers write it: text operators and the odd ruled line. */
function contentStream(lines: number): Uint8Array {
  let text = ''
  for (let i = 0; i < lines; i++) {
    text += `BT /F1 9 Tf 1 0 0 1 ${72 + (i % 7) * 61.5} ${740 - i * 11.2} Tm (Net sales ${i * 37}) Tj ET\n`
    if (i % 5 === 0) text += `0.5 w 72 ${735 - i * 11.2} m 540 ${735 - i * 11.2} l S\n`
  }
  return new TextEncoder().encode(text)
}

/** The type of a zlib stream's first block (0 stored, 1 fixed codes, 2 dynamic codes). */
const firstBlockType = (zlib: Uint8Array) => (zlib[2]! >> 1) & 3

describe('inflate', () => {
  it('reads back what zlib wrote, in each kind of block', () => {
    const cases: [Uint8Array, Parameters<typeof deflateSync>[1], number][] = [
      [contentStream(40), { level: 0 }, 0],
      [contentStream(40), { strategy: constants.Z_FIXED }, 1],
      [contentStream(40), {}, 2],
      // Past zlib's 32 KB window, and over several blocks.
      [contentStream(3000), {}, 2],
      // Stored, in blocks of at most 64 KB.
      [noise(100_000), { level: 0 }, 0],
      // One byte repeated: copies that overlap what they write.
      [new Uint8Array(70_000).fill(0x41), {}, 2],
    ]
    for (const [data, options, type] of cases) {
      const zlib = new Uint8Array(deflateSync(data, options))
      expect(firstBlockType(zlib)).toBe(type)
      expect(inflate(zlib)).toEqual(data)
    }
    expect(inflate(new Uint8Array(deflateSync(new Uint8Array(0))))).toEqual(new Uint8Array(0))
  })

  it('reads a stored block that follows coded ones (its length is read from the byte boundary)', () => {
    // Coded blocks ended by a flush (an empty stored block), then stored blocks, behind a header;
    // texts of many lengths, so that the flush finds the bit buffer holding whole bytes unread.
    for (let lines = 1; lines <= 40; lines++) {
      const [coded, stored] = [contentStream(lines), noise(300 + lines)]
      const zlib = new Uint8Array([
        0x78,
        0x01,
        ...deflateRawSync(coded, { finishFlush: constants.Z_SYNC_FLUSH }),
        ...deflateRawSync(stored, { level: 0 }),
      ])
      expect(inflate(zlib)).toEqual(new Uint8Array([...coded, ...stored]))
    }
  })

  it('ignores what follows the checksum (an end of line inside the stream)', () => {
    const data = contentStream(20)
    const zlib = new Uint8Array(deflateSync(data))
    expect(inflate(new Uint8Array([...zlib, 13, 10]))).toEqual(data)
  })

  it('throws on a stream cut off, a header that is not zlib, or a bad block type', () => {
    const zlib = new Uint8Array(deflateSync(contentStream(200)))
    expect(() => inflate(zlib.subarray(0, zlib.length - 40))).toThrow('cut off')
    expect(() =>
      inflate(new Uint8Array(deflateSync(noise(5000), { level: 0 })).subarray(0, 900)),
    ).toThrow('cut off')
    expect(() => inflate(zlib.subarray(2))).toThrow('not a zlib stream')
    // 0x78 0x9c, then a final block of the reserved type 3.
    expect(() => inflate(new Uint8Array([0x78, 0x9c, 0x07, 0x00]))).toThrow('invalid block type')
  })
})
