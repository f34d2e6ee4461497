import { type KeyObject, createHmac, timingSafeEqual, verify as verifySignature } from 'node:crypto'
import { decodeProtectedHeader, errors as joseErrors, jwtVerify } from 'jose'
import type { Keys } from '../config/keys.ts'
import type { SigningKey } from '../config/signing-keys.ts'

/** Who a request comes from, after the gateway has looked at its keys and token. */
export type Caller = {
  role: string
  claims: Record<string, unknown>
  /** The bearer JWT when the caller presented one (user session or legacy key). */
  jwt: string | null
  /** How the API key was given: legacy JWT key, new publishable/secret key, or none. */
  apiKey: 'legacy' | 'publishable' | 'secret' | 'none'
}

/** Why credentials were refused; each service renders this in its own error format. */
export type CredentialError = {
  kind: 'invalid_api_key' | 'invalid_jwt' | 'expired_jwt' | 'missing_role'
  message: string
}

export type CallerResult = { ok: true; caller: Caller } | { ok: false; error: CredentialError }

const encoder = new TextEncoder()

/** Tokens whose signature has been checked, at most this many (the oldest go first). */
const maxVerified = 1000

type Verified = { claims: Record<string, unknown>; exp: number | null }

/** A JWT payload (plain JSON) made read-only all the way down. */
function frozen<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const item of Object.values(value)) frozen(item)
    Object.freeze(value)
  }
  return value
}

/** The hosted gateway's wording: new-style keys are "unregistered", anything else "invalid". */
const invalidApiKey = (key: string): CredentialError => ({
  kind: 'invalid_api_key',
  message: key.startsWith('sb_') ? 'Unregistered API key' : 'Invalid API key',
})

export class CallerResolver {
  private readonly secret: Uint8Array
  private readonly keys: Keys
  private readonly signingKeys: SigningKey[]
  /**
   * Tokens already verified, by their exact text. Checking a signature costs ~45 µs of CPU per
   * request (jose's HS256 through WebCrypto), and a client sends the same token on every call
   * until it refreshes it; a token's claims cannot change without changing its text. A token
   * is served from here only while jose would still accept it: `exp` is checked on each use.
   */
  private readonly verified = new Map<string, Verified>()
  constructor(keys: Keys, signingKeys: SigningKey[] = []) {
    this.keys = keys
    this.signingKeys = signingKeys
    this.secret = encoder.encode(keys.jwtSecret)
  }

  /**
   * The key a token names: the legacy secret for HS256 (the API keys, and tokens issued before
   * signing keys were configured), else the signing key of its `kid` and algorithm.
   */
  private keyFor(token: string) {
    let header: { alg?: string; kid?: string }
    try {
      header = decodeProtectedHeader(token)
    } catch {
      return { key: this.secret, alg: 'HS256' }
    }
    if (header.alg === 'HS256' || !header.alg) return { key: this.secret, alg: 'HS256' }
    const match = this.signingKeys.find((k) => k.kid === header.kid && k.alg === header.alg)
    return match ? { key: match.publicKey, alg: match.alg } : null
  }

  /** Verifies a token signed with the project's JWT secret or one of its signing keys. */
  async verify(
    token: string,
  ): Promise<
    { ok: true; claims: Record<string, unknown> } | { ok: false; error: CredentialError }
  > {
    const known = this.verified.get(token)
    // jose's own test: expired once `exp` is not after the current second.
    if (known && (known.exp === null || known.exp > Math.floor(Date.now() / 1000))) {
      return { ok: true, claims: known.claims }
    }
    // An expired one is dropped and goes through jose again, for its error.
    this.verified.delete(token)
    try {
      const chosen = this.keyFor(token)
      if (!chosen) {
        return {
          ok: false,
          error: { kind: 'invalid_jwt', message: 'JWSError JWSInvalidSignature' },
        }
      }
      const { payload } = await jwtVerify(token, chosen.key, { algorithms: [chosen.alg] })
      // Shared by every request with this token: frozen, so none can change another's claims.
      const claims = frozen(payload) as Record<string, unknown>
      if (this.verified.size >= maxVerified) {
        this.verified.delete(this.verified.keys().next().value as string)
      }
      this.verified.set(token, {
        claims,
        exp: typeof payload.exp === 'number' ? payload.exp : null,
      })
      return { ok: true, claims }
    } catch (error) {
      if (error instanceof joseErrors.JWTExpired) {
        return { ok: false, error: { kind: 'expired_jwt', message: 'JWT expired' } }
      }
      const message =
        error instanceof joseErrors.JWSSignatureVerificationFailed
          ? 'JWSError JWSInvalidSignature'
          : error instanceof joseErrors.JWSInvalid || error instanceof joseErrors.JWTInvalid
            ? 'Expected 3 parts in JWT; got ' + token.split('.').length
            : 'JWSError JWSInvalidSignature'
      return { ok: false, error: { kind: 'invalid_jwt', message } }
    }
  }

  /**
   * The role one of the project's API keys stands for, or null for any other value.  Only the keys
   * themselves and JWTs minted for their roles count: a user's access token is not an API key.
   */
  apiKeyRole(key: string): 'anon' | 'service_role' | null {
    if (key === this.keys.publishableKey || key === this.keys.anonKey) return 'anon'
    if (key === this.keys.secretKey || key === this.keys.serviceRoleKey) return 'service_role'
    return this.mintedKeyRole(key)
  }

  /**
   * A legacy key minted by the project's owner: a JWT for the `anon` or `service_role` role,
   * signed with the JWT secret or a signing key and not expired. The CLI's gateway passes such
   * keys to services that verify them, and tooling mints its own (Supabase's auth-js suite signs
   * its keys with the RS256 key of `signing_keys_path`). Synchronous because the WebSocket
   * upgrade check is.
   */
  private mintedKeyRole(key: string): 'anon' | 'service_role' | null {
    const [head, body, sig, ...rest] = key.split('.')
    if (head === undefined || body === undefined || sig === undefined || rest.length) return null
    const chosen = this.keyFor(key)
    if (!chosen) return null
    const signed = Buffer.from(`${head}.${body}`)
    const signature = Buffer.from(sig, 'base64url')
    let valid: boolean
    if (chosen.alg === 'HS256') {
      const expected = createHmac('sha256', chosen.key as Uint8Array)
        .update(signed)
        .digest()
      valid = expected.length === signature.length && timingSafeEqual(expected, signature)
    } else {
      const publicKey = chosen.key as KeyObject
      try {
        valid = verifySignature(
          'sha256',
          signed,
          chosen.alg === 'ES256' ? { key: publicKey, dsaEncoding: 'ieee-p1363' } : publicKey,
          signature,
        )
      } catch {
        valid = false
      }
    }
    if (!valid) return null
    let claims: { role?: unknown; exp?: unknown }
    try {
      claims = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'))
    } catch {
      return null
    }
    if (typeof claims.exp === 'number' && claims.exp * 1000 <= Date.now()) return null
    return claims.role === 'anon' || claims.role === 'service_role' ? claims.role : null
  }

  /**
   * Maps `apikey` and `Authorization` to a role and claims (docs §1.3, §2.7).
   * A user JWT in Authorization wins; an `sb_` key there stands for its role, as the
   * hosted gateway does. No credentials at all means anon, as PostgREST behind the CLI.
   */
  async resolve(apikey: string | null, authorization: string | null): Promise<CallerResult> {
    const bearer = /^bearer\s+(.+)$/i.exec(authorization ?? '')?.[1]?.trim() ?? null
    let apiKind: Caller['apiKey'] = 'none'
    if (apikey) {
      const role = this.apiKeyRole(apikey)
      if (!role) return { ok: false, error: invalidApiKey(apikey) }
      apiKind = !apikey.startsWith('sb_') ? 'legacy' : role === 'anon' ? 'publishable' : 'secret'
    }
    const token = bearer ?? (apiKind === 'legacy' ? apikey : null)
    if (token && token.startsWith('sb_')) {
      const role = this.apiKeyRole(token)
      if (!role) return { ok: false, error: invalidApiKey(token) }
      return {
        ok: true,
        caller: {
          role,
          claims: { role },
          jwt: null,
          apiKey: apiKind === 'none' ? (role === 'anon' ? 'publishable' : 'secret') : apiKind,
        },
      }
    }
    if (token) {
      const verified = await this.verify(token)
      if (!verified.ok) return verified
      const role = verified.claims.role
      if (typeof role !== 'string' || !role) {
        return {
          ok: false,
          error: { kind: 'missing_role', message: 'JWT is missing the role claim' },
        }
      }
      return { ok: true, caller: { role, claims: verified.claims, jwt: token, apiKey: apiKind } }
    }
    const role = apiKind === 'secret' ? 'service_role' : 'anon'
    return { ok: true, caller: { role, claims: { role }, jwt: null, apiKey: apiKind } }
  }
}
