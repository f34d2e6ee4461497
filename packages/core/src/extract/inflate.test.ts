import { constants, deflateRawSync, deflateSync, inflateRawSync } from 'node:zlib'
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

/** Deflate's bit order: values from their lowest bit, Huffman codes from their highest. */
class BitWriter {
  private readonly bytes: number[] = []
  private byte = 0
  private count = 0

  write(value: number, bits: number): void {
    for (let i = 0; i < bits; i++) {
      this.byte |= ((value >> i) & 1) << this.count
      if (++this.count === 8) {
        this.bytes.push(this.byte)
        ;[this.byte, this.count] = [0, 0]
      }
    }
  }

  code(code: number, bits: number): void {
    for (let i = bits - 1; i >= 0; i--) this.write(code >> i, 1)
  }

  /** The bytes written, the last padded with zeros. */
  aligned(): number[] {
    return this.count === 0 ? this.bytes : [...this.bytes, this.byte]
  }
}

/** The order a dynamic block lists its code length code's lengths in (RFC 1951, 3.2.7). */
const CODE_LENGTH_ORDER = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]

/** Deflate's canonical Huffman codes for code lengths by symbol: symbol → [code, length]. */
function canonicalCodes(lengths: Map<number, number>): Map<number, [number, number]> {
  const codes = new Map<number, [number, number]>()
  let code = 0
  for (let len = 1; len <= 15; len++, code <<= 1) {
    for (const symbol of [...lengths.keys()].sort((a, b) => a - b)) {
      if (lengths.get(symbol) === len) codes.set(symbol, [code++, len])
    }
  }
  return codes
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

  it('reads a stored block when reading ahead took whole bytes past the block before', () => {
    // zlib never writes this, so it is written here bit by bit: a block of dynamic codes whose
    // longest code is 15 bits and whose end code is 1 bit (reading ahead for a 15-bit lookup
    // can take two bytes past that end), then a final stored block, which starts at the first
    // byte after the end code. k literals of 2 bits before the end meet every alignment.
    const literals = new Map<number, number>([[256, 1]]) // symbol → code length
    for (let len = 2; len <= 15; len++) literals.set(95 + len, len) // 'a' (97) gets 2 bits
    literals.set(111, 15)
    const literalCodes = canonicalCodes(literals)
    for (let k = 0; k < 16; k++) {
      const bits = new BitWriter()
      bits.write(0, 1) // not the last block
      bits.write(2, 2) // dynamic codes
      bits.write(0, 5) // 257 literal/length codes
      bits.write(0, 5) // 1 distance code
      bits.write(15, 4) // 19 code length codes: 13 of 4 bits, 6 of 5
      const lengthCodeLengths = new Map<number, number>()
      for (const [i, symbol] of CODE_LENGTH_ORDER.entries()) {
        lengthCodeLengths.set(symbol, i < 13 ? 4 : 5)
        bits.write(i < 13 ? 4 : 5, 3)
      }
      const lengthCodes = canonicalCodes(lengthCodeLengths)
      const length = (symbol: number) => bits.code(...lengthCodes.get(symbol)!)
      length(18) // 97 zero lengths (11 + 86)
      bits.write(86, 7)
      for (let symbol = 97; symbol <= 111; symbol++) length(literals.get(symbol)!)
      length(18) // 138 zero lengths (11 + 127), then 6 more (3 + 3)
      bits.write(127, 7)
      length(17)
      bits.write(3, 3)
      length(1) // the end code, 256
      length(1) // the one distance code
      for (let i = 0; i < k; i++) bits.code(...literalCodes.get(97)!)
      bits.code(...literalCodes.get(256)!)
      bits.write(1, 1) // the last block
      bits.write(0, 2) // stored
      const stored = noise(20 + k)
      const deflate = [...bits.aligned(), stored.length, 0, ~stored.length & 0xff, 0xff, ...stored]
      const expected = new Uint8Array([...new Array<number>(k).fill(97), ...stored])
      // zlib agrees the stream holds what it should (raw: no header, no checksum).
      expect(new Uint8Array(inflateRawSync(new Uint8Array(deflate)))).toEqual(expected)
      expect(inflate(new Uint8Array([0x78, 0x01, ...deflate]))).toEqual(expected)
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
