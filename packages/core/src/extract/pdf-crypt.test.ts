import { describe, expect, it } from 'vitest'
import { md5, rc4 } from './pdf-crypt.ts'

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex')
const ascii = (text: string) => new TextEncoder().encode(text)

describe('pdf-crypt', () => {
  it('digests as RFC 1321 says, across block boundaries', () => {
    expect(hex(md5(ascii('')))).toBe('d41d8cd98f00b204e9800998ecf8427e')
    expect(hex(md5(ascii('abc')))).toBe('900150983cd24fb0d6963f7d28e17f72')
    expect(hex(md5(ascii('1234567890'.repeat(8))))).toBe('57edf4a22be3c955ac49da2e2107b67a')
  })

  it('enciphers the published RC4 test vectors, and deciphers them back', () => {
    expect(hex(rc4(ascii('Key'), ascii('Plaintext')))).toBe('bbf316e8d940af0ad3')
    expect(hex(rc4(ascii('Wiki'), ascii('pedia')))).toBe('1021bf0420')
    expect(rc4(ascii('Key'), rc4(ascii('Key'), ascii('Plaintext')))).toEqual(ascii('Plaintext'))
  })
})
