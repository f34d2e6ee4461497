/**
 * The standard security handler's RC4 encryption (ISO 32000-1, 7.6.3, revisions 2 and 3) with
 * an empty user password: many filings are "encrypted" that way only to set permissions, and
 * their content streams must be decrypted to be read. Other handlers and AES throw (the page is
 * then left to pdf.js).
 */
import { concat, PdfName, PdfString, type PdfDict } from './pdf-syntax.ts'

/** The 32 bytes a password is padded with (7.6.3.3, algorithm 2). */
const PAD = Uint8Array.from([
  0x28, 0xbf, 0x4e, 0x5e, 0x4e, 0x75, 0x8a, 0x41, 0x64, 0x00, 0x4e, 0x56, 0xff, 0xfa, 0x01, 0x08,
  0x2e, 0x2e, 0x00, 0xb6, 0xd0, 0x68, 0x3e, 0x80, 0x2f, 0x0c, 0xa9, 0xfe, 0x64, 0x53, 0x69, 0x7a,
])

/** Decrypts one object's stream data; undefined for an unencrypted file. */
export type StreamDecrypt = (data: Uint8Array, num: number, gen: number) => Uint8Array

export function standardDecrypt(encrypt: PdfDict, firstId: Uint8Array): StreamDecrypt {
  const filter = encrypt.get('Filter')
  const v = encrypt.get('V') ?? 0
  const r = encrypt.get('R')
  const o = encrypt.get('O')
  const u = encrypt.get('U')
  const p = encrypt.get('P')
  if (!(filter instanceof PdfName) || filter.name !== 'Standard' || (v !== 1 && v !== 2)) {
    throw new Error('unsupported encryption')
  }
  if ((r !== 2 && r !== 3) || !(o instanceof PdfString) || !(u instanceof PdfString)) {
    throw new Error('unsupported encryption')
  }
  if (typeof p !== 'number') throw new Error('unsupported encryption')
  const length = r === 2 ? 5 : Number(encrypt.get('Length') ?? 40) / 8
  let hash = md5(concat([PAD, o.bytes.subarray(0, 32), le32(p), firstId]))
  if (r === 3) for (let i = 0; i < 50; i++) hash = md5(hash.subarray(0, length))
  const key = hash.slice(0, length)
  if (!userPasswordIsEmpty(key, r, u.bytes, firstId)) throw new Error('not the empty password')
  return (data, num, gen) => {
    const objectKey = md5(
      concat([
        key,
        Uint8Array.from([num, num >> 8, num >> 16, gen, gen >> 8].map((b) => b & 0xff)),
      ]),
    )
    return rc4(objectKey.subarray(0, Math.min(length + 5, 16)), data)
  }
}

/** Algorithms 4 and 5: whether the key, from the empty password, opens the file. */
function userPasswordIsEmpty(key: Uint8Array, r: number, u: Uint8Array, id: Uint8Array) {
  if (r === 2) return rc4(key, PAD).every((b, i) => b === u[i])
  let x = rc4(key, md5(concat([PAD, id])))
  for (let i = 1; i <= 19; i++) {
    x = rc4(
      key.map((b) => b ^ i),
      x,
    )
  }
  return x.every((b, i) => b === u[i])
}

export function rc4(key: Uint8Array, data: Uint8Array): Uint8Array {
  const s = new Uint8Array(256)
  for (let i = 0; i < 256; i++) s[i] = i
  for (let i = 0, j = 0; i < 256; i++) {
    j = (j + s[i]! + key[i % key.length]!) & 0xff
    ;[s[i], s[j]] = [s[j]!, s[i]!]
  }
  const out = new Uint8Array(data.length)
  for (let k = 0, i = 0, j = 0; k < data.length; k++) {
    i = (i + 1) & 0xff
    j = (j + s[i]!) & 0xff
    const t = s[i]!
    s[i] = s[j]!
    s[j] = t
    out[k] = data[k]! ^ s[(s[i]! + s[j]!) & 0xff]!
  }
  return out
}

const SHIFTS = [7, 12, 17, 22, 5, 9, 14, 20, 4, 11, 16, 23, 6, 10, 15, 21]
const SINES = Array.from({ length: 64 }, (_, i) => Math.floor(Math.abs(Math.sin(i + 1)) * 2 ** 32))

/** RFC 1321's MD5 digest (WebCrypto has none; the key derivation needs it). */
export function md5(message: Uint8Array): Uint8Array {
  const padded = new Uint8Array((((message.length + 8) >> 6) + 1) * 64)
  padded.set(message)
  padded[message.length] = 0x80
  const view = new DataView(padded.buffer)
  view.setUint32(padded.length - 8, (message.length * 8) >>> 0, true)
  view.setUint32(padded.length - 4, Math.floor(message.length / 2 ** 29), true)
  const state = [0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476]
  const words = new Array<number>(16)
  for (let block = 0; block < padded.length; block += 64) {
    for (let i = 0; i < 16; i++) words[i] = view.getUint32(block + i * 4, true)
    let [a, b, c, d] = state as [number, number, number, number]
    for (let i = 0; i < 64; i++) {
      const round = i >> 4
      let f: number
      let g: number
      if (round === 0) [f, g] = [(b & c) | (~b & d), i]
      else if (round === 1) [f, g] = [(d & b) | (~d & c), (5 * i + 1) % 16]
      else if (round === 2) [f, g] = [b ^ c ^ d, (3 * i + 5) % 16]
      else [f, g] = [c ^ (b | ~d), (7 * i) % 16]
      const shift = SHIFTS[round * 4 + (i % 4)]!
      const sum = (f + a + SINES[i]! + words[g]!) | 0
      ;[a, d, c] = [d, c, b]
      b = (b + ((sum << shift) | (sum >>> (32 - shift)))) | 0
    }
    state[0] = (state[0]! + a) | 0
    state[1] = (state[1]! + b) | 0
    state[2] = (state[2]! + c) | 0
    state[3] = (state[3]! + d) | 0
  }
  const out = new Uint8Array(16)
  const outView = new DataView(out.buffer)
  state.forEach((word, i) => outView.setUint32(i * 4, word >>> 0, true))
  return out
}

function le32(value: number): Uint8Array {
  const out = new Uint8Array(4)
  new DataView(out.buffer).setInt32(0, value, true)
  return out
}
