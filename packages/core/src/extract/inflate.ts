/**
 * Inflates a zlib stream (RFC 1950 around RFC 1951 DEFLATE), as PDF's FlateDecode holds them,
 * synchronously and in one pass. The grid screen (pdf-file.ts) decodes a few content streams per
 * page: through DecompressionStream each one cost a stream pipeline, a zlib context and a trip to
 * the thread pool, several times the inflating itself. As in pdf.js, the header's window size is
 * not held to (some producers declare a smaller one than their data uses) and bytes after the
 * last block are ignored. The Adler-32 check is not made (a damaged stream mostly breaks its
 * codes, which throw); a cut-off stream throws.
 */

const LENGTH_BASE = [
  3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131,
  163, 195, 227, 258,
]
const LENGTH_EXTRA = [
  0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0,
]
const DISTANCE_BASE = [
  1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049,
  3073, 4097, 6145, 8193, 12289, 16385, 24577,
]
const DISTANCE_EXTRA = [
  0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13,
]
/** The order a dynamic block lists its code-length code's lengths in. */
const CODE_LENGTH_ORDER = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]

/**
 * A Huffman code as a table indexed by the next `bits` input bits (codes are packed first bit
 * lowest): each entry is symbol << 4 | code length, 0 where no code starts so.
 */
interface Code {
  table: Int32Array
  bits: number
}

function huffman(lengths: ArrayLike<number>): Code {
  let bits = 0
  const counts = new Array<number>(16).fill(0)
  for (let s = 0; s < lengths.length; s++) {
    counts[lengths[s]!]!++
    bits = Math.max(bits, lengths[s]!)
  }
  counts[0] = 0
  const next = new Array<number>(16).fill(0)
  for (let len = 1, code = 0; len <= 15; len++) {
    code = (code + counts[len - 1]!) << 1
    next[len] = code
  }
  const table = new Int32Array(1 << bits)
  for (let s = 0; s < lengths.length; s++) {
    const len = lengths[s]!
    if (len === 0) continue
    const code = next[len]!++
    if (code >= 1 << len) throw new Error('over-subscribed code')
    let reversed = 0
    for (let k = 0; k < len; k++) reversed |= ((code >> k) & 1) << (len - 1 - k)
    for (let i = reversed; i < table.length; i += 1 << len) table[i] = (s << 4) | len
  }
  return { table, bits }
}

let fixed: { literals: Code; distances: Code } | undefined
function fixedCodes() {
  if (!fixed) {
    const literals = new Array<number>(288)
    for (let s = 0; s < 288; s++) literals[s] = s < 144 ? 8 : s < 256 ? 9 : s < 280 ? 7 : 8
    fixed = { literals: huffman(literals), distances: huffman(new Array<number>(30).fill(5)) }
  }
  return fixed
}

class Inflater {
  private readonly input: Uint8Array
  private pos: number
  private bitBuffer = 0
  private bitCount = 0
  out: Uint8Array
  length = 0

  constructor(input: Uint8Array, start: number) {
    this.input = input
    this.pos = start
    this.out = new Uint8Array(Math.max(4096, input.length * 4))
  }

  /** At least n (≤ 24) bits in the buffer; past the input's end they are zeros, for lookahead. */
  private fill(n: number): void {
    while (this.bitCount < n) {
      const byte = this.pos < this.input.length ? this.input[this.pos]! : 0
      this.pos++
      this.bitBuffer |= byte << this.bitCount
      this.bitCount += 8
    }
  }

  /** Consumes n bits; reading past the input's end throws. */
  private drop(n: number): void {
    this.bitBuffer >>>= n
    this.bitCount -= n
    if (this.pos * 8 - this.bitCount > this.input.length * 8) throw new Error('stream cut off')
  }

  bits(n: number): number {
    this.fill(n)
    const value = this.bitBuffer & ((1 << n) - 1)
    this.drop(n)
    return value
  }

  symbol({ table, bits }: Code): number {
    this.fill(bits)
    const entry = table[this.bitBuffer & ((1 << bits) - 1)]!
    if (entry === 0) throw new Error('invalid code')
    this.drop(entry & 15)
    return entry >> 4
  }

  private room(n: number): void {
    if (this.length + n <= this.out.length) return
    const grown = new Uint8Array(Math.max(this.out.length * 2, this.length + n))
    grown.set(this.out.subarray(0, this.length))
    this.out = grown
  }

  stored(): void {
    // Back to the first byte the bit buffer holds whole: the bits left of a partial byte are
    // the padding up to the byte boundary, where a stored block starts.
    this.pos -= this.bitCount >> 3
    this.bitBuffer = 0
    this.bitCount = 0
    const { input, pos } = this
    if (pos + 4 > input.length) throw new Error('stream cut off')
    const len = input[pos]! | (input[pos + 1]! << 8)
    if ((len ^ (input[pos + 2]! | (input[pos + 3]! << 8))) !== 0xffff) {
      throw new Error('bad stored length')
    }
    if (pos + 4 + len > input.length) throw new Error('stream cut off')
    this.room(len)
    this.out.set(input.subarray(pos + 4, pos + 4 + len), this.length)
    this.length += len
    this.pos = pos + 4 + len
  }

  dynamicCodes(): { literals: Code; distances: Code } {
    const literalCount = this.bits(5) + 257
    const distanceCount = this.bits(5) + 1
    const lengthCodeCount = this.bits(4) + 4
    const lengthLengths = new Array<number>(19).fill(0)
    for (let k = 0; k < lengthCodeCount; k++) lengthLengths[CODE_LENGTH_ORDER[k]!] = this.bits(3)
    const lengthCode = huffman(lengthLengths)
    const lengths = new Array<number>(literalCount + distanceCount).fill(0)
    for (let k = 0; k < lengths.length;) {
      const symbol = this.symbol(lengthCode)
      if (symbol < 16) {
        lengths[k++] = symbol
        continue
      }
      if (symbol === 16 && k === 0) throw new Error('repeat with no length before')
      const value = symbol === 16 ? lengths[k - 1]! : 0
      const times =
        symbol === 16 ? 3 + this.bits(2) : symbol === 17 ? 3 + this.bits(3) : 11 + this.bits(7)
      if (k + times > lengths.length) throw new Error('too many code lengths')
      lengths.fill(value, k, k + times)
      k += times
    }
    return {
      literals: huffman(lengths.slice(0, literalCount)),
      distances: huffman(lengths.slice(literalCount)),
    }
  }

  codes({ literals, distances }: { literals: Code; distances: Code }): void {
    for (;;) {
      const symbol = this.symbol(literals)
      if (symbol < 256) {
        this.room(1)
        this.out[this.length++] = symbol
        continue
      }
      if (symbol === 256) return
      const index = symbol - 257
      if (index >= 29) throw new Error('invalid length code')
      const length = LENGTH_BASE[index]! + this.bits(LENGTH_EXTRA[index]!)
      const code = this.symbol(distances)
      if (code >= 30) throw new Error('invalid distance code')
      const distance = DISTANCE_BASE[code]! + this.bits(DISTANCE_EXTRA[code]!)
      if (distance > this.length) throw new Error('distance before the start')
      this.room(length)
      const out = this.out
      // Byte by byte: a copy may overlap what it writes (a run of one repeated byte).
      for (let k = 0, from = this.length - distance; k < length; k++) {
        out[this.length++] = out[from + k]!
      }
    }
  }
}

/** The data a zlib stream holds. Throws on a bad header, a bad code or a cut-off stream. */
export function inflate(data: Uint8Array): Uint8Array {
  if (data.length < 2) throw new Error('stream cut off')
  const [cmf, flg] = [data[0]!, data[1]!]
  if ((cmf & 0x0f) !== 8 || ((cmf << 8) | flg) % 31 !== 0 || flg & 0x20) {
    throw new Error('not a zlib stream')
  }
  const inflater = new Inflater(data, 2)
  for (let last = 0; !last;) {
    last = inflater.bits(1)
    const type = inflater.bits(2)
    if (type === 0) inflater.stored()
    else if (type === 1) inflater.codes(fixedCodes())
    else if (type === 2) inflater.codes(inflater.dynamicCodes())
    else throw new Error('invalid block type')
  }
  return inflater.out.subarray(0, inflater.length)
}
