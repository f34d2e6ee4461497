import { createHmac, randomBytes } from 'node:crypto'

// Time-based one-time passwords (RFC 6238 over RFC 4226's HOTP), as authenticator apps and
// GoTrue's pquerna/otp compute them: SHA-1, six digits, a 30-second step.

export const TOTP_PERIOD = 30
const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567'

/** RFC 4648 base32 without padding, the form otpauth:// URIs carry. */
export function base32Encode(bytes: Uint8Array): string {
  let bits = 0
  let value = 0
  let out = ''
  for (const byte of bytes) {
    value = (value << 8) | byte
    bits += 8
    while (bits >= 5) {
      out += alphabet[(value >>> (bits - 5)) & 31]
      bits -= 5
    }
  }
  if (bits > 0) out += alphabet[(value << (5 - bits)) & 31]
  return out
}

export function base32Decode(text: string): Buffer {
  const clean = text.replace(/[\s=]/g, '').toUpperCase()
  const bytes: number[] = []
  let bits = 0
  let value = 0
  for (const char of clean) {
    const index = alphabet.indexOf(char)
    if (index < 0) throw new Error('invalid base32 secret')
    value = (value << 5) | index
    bits += 5
    if (bits >= 8) {
      bytes.push((value >>> (bits - 8)) & 255)
      bits -= 8
    }
  }
  return Buffer.from(bytes)
}

/** A new shared secret: 20 random bytes (160 bits, RFC 4226's recommendation), base32. */
export const newTotpSecret = (): string => base32Encode(randomBytes(20))

/** The time step a moment falls in. */
export const totpStep = (ms: number): number => Math.floor(ms / 1000 / TOTP_PERIOD)

/** The HOTP value for a counter (RFC 4226 §5.3, dynamic truncation). */
export function hotp(
  key: Uint8Array,
  counter: number,
  digits = 6,
  algorithm: 'sha1' | 'sha256' | 'sha512' = 'sha1',
): string {
  const message = Buffer.alloc(8)
  message.writeBigUInt64BE(BigInt(counter))
  const mac = createHmac(algorithm, key).update(message).digest()
  const offset = mac[mac.length - 1]! & 0x0f
  const binary = mac.readUInt32BE(offset) & 0x7fffffff
  return String(binary % 10 ** digits).padStart(digits, '0')
}

/** The six-digit code for a base32 secret at a moment (tests and the app's e2e compute theirs so). */
export const totpCode = (secret: string, ms = Date.now()): string =>
  hotp(base32Decode(secret), totpStep(ms))

/**
 * The time step a code matches within ±`skew` steps of now (clocks drift, and a code typed
 * at the end of its 30 seconds arrives in the next), or null. Every candidate is compared, so
 * the time taken does not tell which step matched.
 */
export function matchTotp(secret: string, code: string, ms = Date.now(), skew = 1): number | null {
  if (!/^\d{6}$/.test(code)) return null
  const key = base32Decode(secret)
  const now = totpStep(ms)
  let matched: number | null = null
  for (let step = now - skew; step <= now + skew; step++) {
    const candidate = hotp(key, step)
    let diff = 0
    for (let i = 0; i < 6; i++) diff |= candidate.charCodeAt(i) ^ code.charCodeAt(i)
    if (diff === 0 && matched === null) matched = step
  }
  return matched
}

/** The otpauth:// URI authenticator apps read, in pquerna/otp's layout. */
export function totpUri(issuer: string, account: string, secret: string): string {
  const label = `${encodeURIComponent(issuer)}:${encodeURIComponent(account)}`
  const query = new URLSearchParams({
    algorithm: 'SHA1',
    digits: '6',
    issuer,
    period: String(TOTP_PERIOD),
    secret,
  })
  return `otpauth://totp/${label}?${query}`
}
