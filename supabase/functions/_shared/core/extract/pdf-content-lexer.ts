// Generated from packages/core/src/extract/pdf-content-lexer.ts by `npm run sync:core`: edit that file, not this one.
/**
 * A content stream's operators, only those asked for, with their operands read on demand: text
 * operators and their strings and arrays are passed over without building a value (they are
 * most of a page's stream), so the grid screen (pdf-rule-screen.ts) costs a fraction of pdf.js's
 * evaluation. Malformed syntax throws.
 */
import { DELIMITER, WHITE, latin1, parseNumber } from './pdf-syntax.ts'

/** Operands kept per operator (a power of two): `cm` takes the most, six. */
const RING = 8
const NUMBER = 0
const NAME = 1
const OTHER = 2

/** Up to three bytes of an operator as one number, to look it up without building a string. */
function code(data: Uint8Array, start: number, end: number): number {
  if (end - start > 3) return -1
  let value = 0
  for (let i = start; i < end; i++) value = value * 256 + data[i]!
  return value
}

export class ContentLexer {
  private readonly data: Uint8Array
  private readonly wanted = new Map<number, string>()
  private pos = 0
  /** The operands since the last operator, the last RING of them kept (none takes more). */
  private count = 0
  private readonly starts = new Int32Array(RING)
  private readonly ends = new Int32Array(RING)
  private readonly kinds = new Uint8Array(RING)

  constructor(data: Uint8Array, operators: Iterable<string>) {
    this.data = data
    for (const op of operators) {
      this.wanted.set(code(new TextEncoder().encode(op), 0, op.length), op)
    }
  }

  /** The k-th operand counted from the last (0 the last), which must be a number. */
  number(k: number): number {
    const i = (this.count - 1 - k) & (RING - 1)
    if (k >= Math.min(this.count, RING) || this.kinds[i] !== NUMBER) {
      throw new SyntaxError('operand is not a number')
    }
    return parseNumber(this.data, this.starts[i]!, this.ends[i]!)
  }

  /** The last operand, which must be a name. */
  lastName(): string {
    const i = (this.count - 1) & (RING - 1)
    if (this.count === 0 || this.kinds[i] !== NAME) throw new SyntaxError('operand is not a name')
    const name = latin1(this.data, this.starts[i]!, this.ends[i]!)
    return name.includes('#')
      ? name.replace(/#([0-9a-f]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)))
      : name
  }

  /** The next wanted operator (its operands stay readable until the next call), or undefined. */
  next(): string | undefined {
    const data = this.data
    this.count = 0
    while (this.pos < data.length) {
      const c = data[this.pos]!
      if (WHITE[c]) {
        this.pos++
        continue
      }
      const start = this.pos
      if (!DELIMITER[c]) {
        let end = start + 1
        while (end < data.length && !WHITE[data[end]!] && !DELIMITER[data[end]!]) end++
        this.pos = end
        if ((c >= 0x30 && c <= 0x39) || c === 0x2b || c === 0x2d || c === 0x2e) {
          this.push(NUMBER, start, end)
          continue
        }
        const op = this.wanted.get(code(data, start, end))
        if (op !== undefined) return op
        this.count = 0
        continue
      }
      if (c === 0x2f /* / */) {
        let end = start + 1
        while (end < data.length && !WHITE[data[end]!] && !DELIMITER[data[end]!]) end++
        this.pos = end
        this.push(NAME, start + 1, end)
      } else if (c === 0x25 /* % */) {
        while (this.pos < data.length && data[this.pos] !== 10 && data[this.pos] !== 13) this.pos++
      } else {
        this.skipValue()
        this.push(OTHER, start, this.pos)
      }
    }
    return undefined
  }

  private push(kind: number, start: number, end: number) {
    const i = this.count++ & (RING - 1)
    this.kinds[i] = kind
    this.starts[i] = start
    this.ends[i] = end
  }

  /** Past a string, an array or a dictionary (nested ones and strings inside included). */
  private skipValue(): void {
    const data = this.data
    let depth = 0
    do {
      const c = data[this.pos]
      if (c === undefined) throw new SyntaxError('unterminated value')
      if (c === 0x28) this.skipLiteral()
      else if (c === 0x3c && data[this.pos + 1] === 0x3c) {
        depth++
        this.pos += 2
      } else if (c === 0x3e && data[this.pos + 1] === 0x3e) {
        depth--
        this.pos += 2
      } else if (c === 0x3c) {
        const end = data.indexOf(0x3e, this.pos)
        if (end < 0) throw new SyntaxError('unterminated hex string')
        this.pos = end + 1
      } else if (c === 0x5b) {
        depth++
        this.pos++
      } else if (c === 0x5d) {
        depth--
        this.pos++
      } else if (depth === 0) throw new SyntaxError(`unexpected ${String.fromCharCode(c)}`)
      else if (c === 0x25) {
        while (this.pos < data.length && data[this.pos] !== 10 && data[this.pos] !== 13) this.pos++
      } else this.pos++
      if (depth < 0) throw new SyntaxError('unbalanced brackets')
    } while (depth > 0)
  }

  /** Past a literal string: nested parentheses count, escaped ones do not. */
  private skipLiteral(): void {
    const data = this.data
    let depth = 0
    for (let i = this.pos; i < data.length; i++) {
      const c = data[i]
      if (c === 0x5c) i++
      else if (c === 0x28) depth++
      else if (c === 0x29 && --depth === 0) {
        this.pos = i + 1
        return
      }
    }
    throw new SyntaxError('unterminated string')
  }
}
