/**
 * PDF's object syntax (ISO 32000-1, 7.2-7.3), read from bytes: what pdf-file.ts needs to find a
 * page's content streams, and what pdf-rule-screen.ts needs to walk them. Anything it does not
 * understand throws: its callers then leave the page to pdf.js.
 */

export class PdfName {
  readonly name: string
  constructor(name: string) {
    this.name = name
  }
}
/** An operator in a content stream, or a bare keyword (obj, R, stream, true…) elsewhere. */
export class PdfKeyword {
  readonly word: string
  constructor(word: string) {
    this.word = word
  }
}
export class PdfString {
  readonly bytes: Uint8Array
  constructor(bytes: Uint8Array) {
    this.bytes = bytes
  }
}
export class PdfRef {
  readonly num: number
  readonly gen: number
  constructor(num: number, gen: number) {
    this.num = num
    this.gen = gen
  }
}
export type PdfDict = Map<string, PdfValue>
export type PdfValue =
  number | boolean | null | PdfName | PdfString | PdfRef | PdfKeyword | PdfValue[] | PdfDict

/** Array and dictionary brackets as the lexer sees them. */
type Delimiter = '[' | ']' | '<<' | '>>'
export type PdfToken = number | PdfName | PdfString | PdfKeyword | Delimiter

export const WHITE = new Uint8Array(256)
for (const c of [0, 9, 10, 12, 13, 32]) WHITE[c] = 1
export const DELIMITER = new Uint8Array(256)
for (const c of '()<>[]{}/%') DELIMITER[c.charCodeAt(0)] = 1

const REGULAR = new Uint8Array(256).map((_, c) => (WHITE[c] || DELIMITER[c] ? 0 : 1))

/** Operators of up to three characters, by their bytes: one object each, no string built. */
const shortKeywords = new Map<number, PdfKeyword>()

function keyword(data: Uint8Array, start: number, end: number): PdfKeyword {
  if (end - start > 3) return new PdfKeyword(latin1(data, start, end))
  let code = 0
  for (let i = start; i < end; i++) code = code * 256 + data[i]!
  let found = shortKeywords.get(code)
  if (!found) shortKeywords.set(code, (found = new PdfKeyword(latin1(data, start, end))))
  return found
}

export class PdfLexer {
  readonly data: Uint8Array
  pos: number
  constructor(data: Uint8Array, pos = 0) {
    this.data = data
    this.pos = pos
  }

  /** The next token, or undefined at the end of the data. */
  next(): PdfToken | undefined {
    const data = this.data
    const c = this.skipSpace()
    if (c < 0) return undefined
    if (REGULAR[c]) {
      const start = this.pos
      let end = start + 1
      while (end < data.length && REGULAR[data[end]!]) end++
      this.pos = end
      // Numbers start with a digit, a sign or a point; everything else regular is a keyword.
      if ((c >= 0x30 && c <= 0x39) || c === 0x2b || c === 0x2d || c === 0x2e) {
        return parseNumber(data, start, end)
      }
      return keyword(data, start, end)
    }
    if (c === 0x28 /* ( */) return this.literalString()
    if (c === 0x2f /* / */) {
      const start = ++this.pos
      while (this.pos < data.length && REGULAR[data[this.pos]!]) this.pos++
      const name = latin1(data, start, this.pos)
      return new PdfName(name.includes('#') ? name.replace(/#([0-9a-f]{2})/gi, hexChar) : name)
    }
    if (c === 0x3c /* < */) {
      if (data[this.pos + 1] === 0x3c) {
        this.pos += 2
        return '<<'
      }
      return this.hexString()
    }
    if (c === 0x3e /* > */) {
      if (data[this.pos + 1] !== 0x3e) throw new SyntaxError('stray >')
      this.pos += 2
      return '>>'
    }
    if (c === 0x5b || c === 0x5d) {
      this.pos++
      return c === 0x5b ? '[' : ']'
    }
    throw new SyntaxError(`unexpected ${String.fromCharCode(c)}`)
  }

  /** Skips white space and comments; the byte then at `pos`, or -1 at the end. */
  skipSpace(): number {
    const data = this.data
    while (this.pos < data.length) {
      const c = data[this.pos]!
      if (WHITE[c]) this.pos++
      else if (c === 0x25 /* % */) {
        while (this.pos < data.length && data[this.pos] !== 10 && data[this.pos] !== 13) this.pos++
      } else return c
    }
    return -1
  }

  /** A whole object: arrays and dictionaries nested, `num gen R` as a reference. */
  readObject(token = this.next()): PdfValue {
    if (token === undefined) throw new SyntaxError('unexpected end')
    if (token === '[') {
      const array: PdfValue[] = []
      for (let t = this.next(); t !== ']'; t = this.next()) array.push(this.readObject(t))
      return this.references(array)
    }
    if (token === '<<') {
      const entries: PdfValue[] = []
      for (let t = this.next(); t !== '>>'; t = this.next()) entries.push(this.readObject(t))
      const values = this.references(entries)
      const dict: PdfDict = new Map()
      for (let i = 0; i + 1 < values.length; i += 2) {
        const key = values[i]
        if (!(key instanceof PdfName)) throw new SyntaxError('dictionary key is not a name')
        dict.set(key.name, values[i + 1]!)
      }
      return dict
    }
    if (token === ']' || token === '>>') throw new SyntaxError(`unexpected ${token}`)
    if (token instanceof PdfKeyword) {
      if (token.word === 'true' || token.word === 'false') return token.word === 'true'
      if (token.word === 'null') return null
    }
    return token
  }

  /** Folds `num gen R` runs of a container's items into references. */
  private references(items: PdfValue[]): PdfValue[] {
    const out: PdfValue[] = []
    for (const item of items) {
      if (item instanceof PdfKeyword && item.word === 'R' && out.length >= 2) {
        const gen = out.pop()
        const num = out.pop()
        if (typeof num !== 'number' || typeof gen !== 'number') throw new SyntaxError('bad R')
        out.push(new PdfRef(num, gen))
      } else out.push(item)
    }
    return out
  }

  private literalString(): PdfString {
    const data = this.data
    const bytes: number[] = []
    let depth = 1
    this.pos++
    while (this.pos < data.length) {
      const c = data[this.pos++]!
      if (c === 0x5c /* \ */) {
        const e = data[this.pos++]!
        const simple = ESCAPES[e]
        if (simple !== undefined) bytes.push(simple)
        else if (e >= 0x30 && e <= 0x37) {
          let code = e - 0x30
          for (let k = 0; k < 2 && data[this.pos]! >= 0x30 && data[this.pos]! <= 0x37; k++) {
            code = code * 8 + data[this.pos++]! - 0x30
          }
          bytes.push(code & 0xff)
        } else if (e === 13) {
          if (data[this.pos] === 10) this.pos++
        } else if (e !== 10) bytes.push(e)
      } else {
        if (c === 0x28) depth++
        else if (c === 0x29 && --depth === 0) return new PdfString(Uint8Array.from(bytes))
        bytes.push(c)
      }
    }
    throw new SyntaxError('unterminated string')
  }

  private hexString(): PdfString {
    const data = this.data
    const end = data.indexOf(0x3e, this.pos)
    if (end < 0) throw new SyntaxError('unterminated hex string')
    const digits = latin1(data, this.pos + 1, end).replace(/\s+/g, '')
    if (!/^[0-9a-f]*$/i.test(digits)) throw new SyntaxError('bad hex string')
    this.pos = end + 1
    const padded = digits.length % 2 ? `${digits}0` : digits
    const bytes = new Uint8Array(padded.length / 2)
    for (let i = 0; i < bytes.length; i++) bytes[i] = parseInt(padded.slice(i * 2, i * 2 + 2), 16)
    return new PdfString(bytes)
  }
}

const ESCAPES: Record<number, number> = {
  0x6e: 10, // n
  0x72: 13, // r
  0x74: 9, // t
  0x62: 8, // b
  0x66: 12, // f
  0x28: 0x28,
  0x29: 0x29,
  0x5c: 0x5c,
}

const hexChar = (_: string, hex: string) => String.fromCharCode(parseInt(hex, 16))

/** A number token: optional sign, digits with at most one point (7.3.3); else it throws. */
export function parseNumber(data: Uint8Array, start: number, end: number): number {
  let i = start
  const negative = data[i] === 0x2d
  if (data[i] === 0x2d || data[i] === 0x2b) i++
  let value = 0
  let digits = 0
  let scale = 0
  for (; i < end; i++) {
    const c = data[i]!
    if (c >= 0x30 && c <= 0x39) {
      value = value * 10 + (c - 0x30)
      digits++
      if (scale) scale *= 10
    } else if (c === 0x2e && !scale) scale = 1
    else throw new SyntaxError('bad number')
  }
  if (digits === 0) throw new SyntaxError('bad number')
  // Long digit runs lose precision when built one digit at a time: parse those as JS does.
  if (digits > 15) return Number(latin1(data, start, end))
  const number = scale > 1 ? value / scale : value
  return negative ? -number : number
}

export function latin1(data: Uint8Array, start: number, end: number): string {
  let out = ''
  for (let i = start; i < end; i++) out += String.fromCharCode(data[i]!)
  return out
}

/** The byte arrays one after another. */
export function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0))
  let at = 0
  for (const part of parts) {
    out.set(part, at)
    at += part.length
  }
  return out
}
