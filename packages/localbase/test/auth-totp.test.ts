import { describe, expect, it } from 'vitest'
import {
  base32Decode,
  base32Encode,
  hotp,
  matchTotp,
  newTotpSecret,
  totpCode,
  totpStep,
  totpUri,
} from '../src/auth/totp.ts'

// RFC 6238 Appendix B: the reference keys and the eight-digit values at each time.
const sha1Key = Buffer.from('12345678901234567890')
const sha256Key = Buffer.from('12345678901234567890123456789012')
const sha512Key = Buffer.from('1234567890123456789012345678901234567890123456789012345678901234')
const vectors: [number, string, string, string][] = [
  [59, '94287082', '46119246', '90693936'],
  [1111111109, '07081804', '68084774', '25091201'],
  [1111111111, '14050471', '67062674', '99943326'],
  [1234567890, '89005924', '91819424', '93441116'],
  [2000000000, '69279037', '90698825', '38618901'],
  [20000000000, '65353130', '77737706', '47863826'],
]

describe('TOTP (RFC 6238)', () => {
  it.each(vectors)(
    'at %i s gives the RFC values for SHA-1, SHA-256 and SHA-512',
    (t, s1, s256, s512) => {
      const step = totpStep(t * 1000)
      expect(hotp(sha1Key, step, 8)).toBe(s1)
      expect(hotp(sha256Key, step, 8, 'sha256')).toBe(s256)
      expect(hotp(sha512Key, step, 8, 'sha512')).toBe(s512)
    },
  )

  it('gives RFC 4226 Appendix D HOTP values', () => {
    const expected = ['755224', '287082', '359152', '969429', '338314']
    expect(expected.map((_, i) => hotp(sha1Key, i))).toEqual(expected)
  })

  it('round-trips base32 and makes 160-bit secrets', () => {
    expect(base32Encode(Buffer.from('foobar'))).toBe('MZXW6YTBOI')
    expect(base32Decode('MZXW6YTBOI').toString()).toBe('foobar')
    const secret = newTotpSecret()
    expect(secret).toMatch(/^[A-Z2-7]{32}$/)
    expect(base32Decode(secret)).toHaveLength(20)
    expect(() => base32Decode('not base32!')).toThrow()
  })

  it('matches a code within one step either side and nothing further', () => {
    const secret = base32Encode(sha1Key)
    const now = 1_700_000_015_000
    const step = totpStep(now)
    expect(matchTotp(secret, totpCode(secret, now), now)).toBe(step)
    expect(matchTotp(secret, totpCode(secret, now - 30_000), now)).toBe(step - 1)
    expect(matchTotp(secret, totpCode(secret, now + 30_000), now)).toBe(step + 1)
    expect(matchTotp(secret, totpCode(secret, now - 60_000), now)).toBeNull()
    expect(matchTotp(secret, totpCode(secret, now + 60_000), now)).toBeNull()
    expect(matchTotp(secret, '12345', now)).toBeNull()
    expect(matchTotp(secret, 'abcdef', now)).toBeNull()
  })

  it('writes the otpauth URI authenticator apps read', () => {
    expect(totpUri('example.com', 'ada@example.com', 'JBSWY3DPEHPK3PXP')).toBe(
      'otpauth://totp/example.com:ada%40example.com?algorithm=SHA1&digits=6&issuer=example.com&period=30&secret=JBSWY3DPEHPK3PXP',
    )
  })
})
