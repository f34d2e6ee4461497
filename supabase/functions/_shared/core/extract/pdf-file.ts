// Generated from packages/core/src/extract/pdf-file.ts by `npm run sync:core`: edit that file, not this one.
/**
 * A PDF file's objects, read on demand from its cross-reference table or streams (ISO 32000-1,
 * 7.5), with Flate-encoded streams decoded and RC4-encrypted ones decrypted: just enough to
 * hand a page's content streams to pdf-rule-screen.ts without pdf.js evaluating them. Damaged
 * cross-references, other filters and other encryption throw; callers fall back to pdf.js.
 */
import { inflate } from './inflate.ts'
import { standardDecrypt, type StreamDecrypt } from './pdf-crypt.ts'
import {
  PdfKeyword,
  PdfLexer,
  PdfName,
  PdfRef,
  PdfString,
  latin1,
  type PdfDict,
  type PdfToken,
  type PdfValue,
} from './pdf-syntax.ts'

export class PdfStream {
  readonly dict: PdfDict
  /** The stream's data as stored (encrypted and encoded). */
  readonly raw: Uint8Array
  readonly ref: PdfRef
  constructor(dict: PdfDict, raw: Uint8Array, ref: PdfRef) {
    this.dict = dict
    this.raw = raw
    this.ref = ref
  }
}

/** Where an object is: at a byte offset, or the index-th object of an object stream. */
type Entry = { offset: number } | { stream: number; index: number }

export class PdfFile {
  private readonly entries = new Map<number, Entry>()
  private readonly cache = new Map<number, Promise<PdfValue | PdfStream>>()
  /** Objects whose reading is under way. */
  private readonly reading = new Set<number>()
  /** Object streams' decoded data, by object number: one holds many pages' dictionaries. */
  private readonly objectStreams = new Map<number, Promise<Uint8Array>>()
  private decrypt: StreamDecrypt | undefined
  private readonly bytes: Uint8Array

  private constructor(bytes: Uint8Array) {
    this.bytes = bytes
  }

  static async open(bytes: Uint8Array): Promise<PdfFile> {
    const file = new PdfFile(bytes)
    const tail = latin1(bytes, Math.max(0, bytes.length - 1024), bytes.length)
    const at = tail.lastIndexOf('startxref')
    if (at < 0) throw new Error('no startxref')
    const trailer = await file.readSections(Number(/startxref\s+(\d+)/.exec(tail.slice(at))?.[1]))
    const encrypt = trailer.get('Encrypt')
    if (encrypt !== undefined) {
      const id = await file.resolve(trailer.get('ID'))
      const first = Array.isArray(id) ? id[0] : undefined
      const dict = await file.resolve(encrypt)
      if (!(first instanceof PdfString) || !(dict instanceof Map)) throw new Error('bad Encrypt')
      file.decrypt = standardDecrypt(dict, first.bytes)
    }
    return file
  }

  /** The value, with a reference followed (streams stay streams). */
  async resolve(
    value: PdfValue | PdfStream | undefined,
  ): Promise<PdfValue | PdfStream | undefined> {
    return value instanceof PdfRef ? this.fetch(value) : value
  }

  fetch(ref: PdfRef): Promise<PdfValue | PdfStream> {
    // An object that needs itself to be read (its own /Length, an object stream inside itself)
    // would wait on its own promise for ever; refusing it sends the page to pdf.js.
    if (this.reading.has(ref.num)) return Promise.reject(new Error(`object ${ref.num} cycles`))
    let value = this.cache.get(ref.num)
    if (!value) {
      const entry = this.entries.get(ref.num)
      if (!entry) return Promise.reject(new Error(`no object ${ref.num}`))
      this.reading.add(ref.num)
      value = (
        'offset' in entry ? this.readAt(entry.offset, ref) : this.readCompressed(entry)
      ).finally(() => this.reading.delete(ref.num))
      this.cache.set(ref.num, value)
    }
    return value
  }

  /** A stream's data decrypted and decoded (FlateDecode only, with PNG predictors). */
  async decode(stream: PdfStream): Promise<Uint8Array> {
    let data = stream.raw
    if (this.decrypt) data = this.decrypt(data, stream.ref.num, stream.ref.gen)
    const filter = await this.resolve(stream.dict.get('Filter'))
    const filters = filter === undefined ? [] : Array.isArray(filter) ? filter : [filter]
    for (const name of filters) {
      if (!(name instanceof PdfName) || name.name !== 'FlateDecode') {
        throw new Error('unsupported filter')
      }
      data = inflate(data)
    }
    const parms = await this.resolve(stream.dict.get('DecodeParms'))
    if (parms instanceof Map && Number(parms.get('Predictor') ?? 1) > 1) {
      data = unpredict(data, parms)
    }
    return data
  }

  /** Reads one xref section and those before it (/Prev); returns the newest trailer. */
  private async readSections(offset: number): Promise<PdfDict> {
    let trailer: PdfDict | undefined
    const seen = new Set<number>()
    for (let at: number | undefined = offset; at !== undefined;) {
      if (!Number.isInteger(at) || seen.has(at)) throw new Error('bad xref offset')
      seen.add(at)
      const section = await this.readSection(at)
      trailer ??= section
      // A hybrid file's stream holds the objects its table leaves out: it comes right after.
      const hybrid = section.get('XRefStm')
      if (typeof hybrid === 'number') await this.readSection(hybrid)
      const prev = section.get('Prev')
      at = typeof prev === 'number' ? prev : undefined
    }
    return trailer!
  }

  /** One table (`xref` … `trailer`) or cross-reference stream; entries already read are newer. */
  private async readSection(offset: number): Promise<PdfDict> {
    const lexer = new PdfLexer(this.bytes, offset)
    const first = lexer.next()
    if (!(first instanceof PdfKeyword && first.word === 'xref')) {
      const stream = await this.readAt(offset, undefined)
      if (!(stream instanceof PdfStream)) throw new Error('bad xref stream')
      this.readXrefStream(stream.dict, await this.decode(stream))
      return stream.dict
    }
    for (;;) {
      const start = lexer.next()
      if (start instanceof PdfKeyword && start.word === 'trailer') break
      const count = lexer.next()
      if (typeof start !== 'number' || typeof count !== 'number') throw new Error('bad xref')
      lexer.skipSpace()
      for (let i = 0; i < count; i++) {
        const [at, kind] = xrefEntry(this.bytes, lexer.pos)
        lexer.pos += 20
        if (kind === 0x6e /* n */ && !this.entries.has(start + i)) {
          this.entries.set(start + i, { offset: at })
        }
      }
    }
    const trailer = lexer.readObject()
    if (!(trailer instanceof Map)) throw new Error('bad trailer')
    return trailer
  }

  private readXrefStream(dict: PdfDict, data: Uint8Array): void {
    const widths = dict.get('W')
    const size = dict.get('Size')
    const index = dict.get('Index') ?? [0, size ?? 0]
    if (!Array.isArray(widths) || !Array.isArray(index) || widths.length !== 3) {
      throw new Error('bad xref stream')
    }
    const [w0, w1, w2] = widths.map(Number) as [number, number, number]
    const field = (at: number, width: number) => {
      let value = 0
      for (let k = 0; k < width; k++) value = value * 256 + data[at + k]!
      return value
    }
    let at = 0
    for (let i = 0; i + 1 < index.length; i += 2) {
      const [start, count] = [Number(index[i]), Number(index[i + 1])]
      for (let k = 0; k < count; k++, at += w0 + w1 + w2) {
        if (at + w0 + w1 + w2 > data.length) throw new Error('short xref stream')
        const type = w0 === 0 ? 1 : field(at, w0)
        const a = field(at + w0, w1)
        const b = field(at + w0 + w1, w2)
        if (this.entries.has(start + k)) continue
        if (type === 1) this.entries.set(start + k, { offset: a })
        else if (type === 2) this.entries.set(start + k, { stream: a, index: b })
      }
    }
  }

  /** `num gen obj` at the offset: the object, or a stream with its raw data. */
  private async readAt(offset: number, ref: PdfRef | undefined): Promise<PdfValue | PdfStream> {
    const lexer = new PdfLexer(this.bytes, offset)
    const num = lexer.next()
    const gen = lexer.next()
    const obj = lexer.next()
    if (typeof num !== 'number' || typeof gen !== 'number') throw new Error('bad object header')
    if (!(obj instanceof PdfKeyword) || obj.word !== 'obj') throw new Error('bad object header')
    if (ref && num !== ref.num) throw new Error('object number mismatch')
    const value = lexer.readObject()
    const keyword = lexer.next()
    if (!(value instanceof Map) || !(keyword instanceof PdfKeyword) || keyword.word !== 'stream') {
      return value
    }
    // The data starts after the end of line that follows `stream`.
    let start = lexer.pos
    if (this.bytes[start] === 13) start++
    if (this.bytes[start] === 10) start++
    const length = await this.resolve(value.get('Length'))
    if (typeof length !== 'number') throw new Error('bad stream length')
    const end = start + length
    const after = latin1(this.bytes, end, Math.min(end + 32, this.bytes.length))
    if (!/^\s*endstream/.test(after)) throw new Error('stream length does not match')
    return new PdfStream(value, this.bytes.subarray(start, end), new PdfRef(num, gen))
  }

  /** The index-th object of an object stream (7.5.7); such objects are never streams. */
  private async readCompressed({ stream, index }: { stream: number; index: number }) {
    const container = await this.fetch(new PdfRef(stream, 0))
    if (!(container instanceof PdfStream)) throw new Error('bad object stream')
    const first = container.dict.get('First')
    if (typeof first !== 'number') throw new Error('bad object stream')
    let decoded = this.objectStreams.get(stream)
    if (!decoded) this.objectStreams.set(stream, (decoded = this.decode(container)))
    const data = await decoded
    const lexer = new PdfLexer(data)
    let offset: PdfToken | undefined
    for (let i = 0; i <= index; i++) {
      lexer.next()
      offset = lexer.next()
    }
    if (typeof offset !== 'number') throw new Error('bad object stream')
    lexer.pos = first + offset
    return lexer.readObject()
  }
}

/** A table entry: 10 digits of offset, a space, 5 of generation, a space, n or f (7.5.4). */
function xrefEntry(bytes: Uint8Array, at: number): [number, number] {
  let offset = 0
  for (let k = 0; k < 10; k++) {
    const digit = bytes[at + k]! - 0x30
    if (digit < 0 || digit > 9) throw new Error('bad xref entry')
    offset = offset * 10 + digit
  }
  const kind = bytes[at + 17]!
  if (bytes[at + 10] !== 0x20 || bytes[at + 16] !== 0x20 || (kind !== 0x6e && kind !== 0x66)) {
    throw new Error('bad xref entry')
  }
  return [offset, kind]
}

/** Undoes PNG row predictors (10-15), as cross-reference streams use them. */
function unpredict(data: Uint8Array, parms: PdfDict): Uint8Array {
  const predictor = Number(parms.get('Predictor'))
  const colors = Number(parms.get('Colors') ?? 1)
  const bits = Number(parms.get('BitsPerComponent') ?? 8)
  const columns = Number(parms.get('Columns') ?? 1)
  if (predictor < 10 || bits !== 8) throw new Error('unsupported predictor')
  const width = colors * columns
  const rows = Math.floor(data.length / (width + 1))
  const out = new Uint8Array(rows * width)
  for (let row = 0; row < rows; row++) {
    const type = data[row * (width + 1)]!
    const src = row * (width + 1) + 1
    const dst = row * width
    for (let i = 0; i < width; i++) {
      const left = i >= colors ? out[dst + i - colors]! : 0
      const up = row > 0 ? out[dst - width + i]! : 0
      const upLeft = row > 0 && i >= colors ? out[dst - width + i - colors]! : 0
      let predicted = 0
      if (type === 1) predicted = left
      else if (type === 2) predicted = up
      else if (type === 3) predicted = (left + up) >> 1
      else if (type === 4) predicted = paeth(left, up, upLeft)
      else if (type !== 0) throw new Error('bad predictor row')
      out[dst + i] = (data[src + i]! + predicted) & 0xff
    }
  }
  return out
}

function paeth(a: number, b: number, c: number): number {
  const p = a + b - c
  const [pa, pb, pc] = [Math.abs(p - a), Math.abs(p - b), Math.abs(p - c)]
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c
}
