import { type JsonWebKey, type KeyObject, createPrivateKey, createPublicKey } from 'node:crypto'
import { existsSync, readFileSync } from 'node:fs'

// `[auth] signing_keys_path`, as the Supabase CLI reads it: a JSON array of private JWKs
// (what `supabase gen signing-key` prints), the first of which signs new access tokens.
// Every key's public half is published at /auth/v1/.well-known/jwks.json and verifies tokens,
// so a key rotated out of first place still verifies what it signed.

export type SigningKey = {
  kid: string
  alg: 'ES256' | 'RS256'
  privateKey: KeyObject
  publicKey: KeyObject
  /** The public JWK as the JWKS endpoint serves it. */
  publicJwk: Record<string, unknown>
}

const supported: Record<string, { kty: string; crv?: string }> = {
  ES256: { kty: 'EC', crv: 'P-256' },
  RS256: { kty: 'RSA' },
}

function parseKey(raw: unknown, index: number, path: string): SigningKey {
  const where = `${path}: key ${index}`
  if (!raw || typeof raw !== 'object') throw new Error(`${where} is not a JWK object`)
  const jwk = raw as Record<string, unknown>
  const alg = String(jwk.alg ?? '')
  const expected = supported[alg]
  if (!expected) throw new Error(`${where}: alg must be ES256 or RS256, got "${alg}"`)
  if (jwk.kty !== expected.kty || (expected.crv && jwk.crv !== expected.crv)) {
    throw new Error(
      `${where}: ${alg} needs kty ${expected.kty}${expected.crv ? ` and crv ${expected.crv}` : ''}`,
    )
  }
  if (typeof jwk.kid !== 'string' || !jwk.kid) throw new Error(`${where}: kid is required`)
  if (typeof jwk.d !== 'string') throw new Error(`${where}: a private key (with "d") is required`)
  let privateKey: KeyObject
  try {
    privateKey = createPrivateKey({ key: jwk as JsonWebKey, format: 'jwk' })
  } catch (error) {
    throw new Error(`${where}: ${(error as Error).message}`, { cause: error })
  }
  const publicKey = createPublicKey(privateKey)
  return {
    kid: jwk.kid,
    alg: alg as SigningKey['alg'],
    privateKey,
    publicKey,
    publicJwk: {
      ...publicKey.export({ format: 'jwk' }),
      kid: jwk.kid,
      alg,
      use: 'sig',
      key_ops: ['verify'],
      ext: true,
    },
  }
}

/** The keys at `path` (already resolved), or none when no path is configured. */
export function loadSigningKeys(path: string | null): SigningKey[] {
  if (!path) return []
  if (!existsSync(path)) throw new Error(`[auth] signing_keys_path: ${path} does not exist`)
  let parsed: unknown
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8'))
  } catch (error) {
    throw new Error(`[auth] signing_keys_path: ${path} is not JSON: ${(error as Error).message}`, {
      cause: error,
    })
  }
  // `supabase gen signing-key` prints one key; the CLI reads an array of them.
  const list = Array.isArray(parsed) ? parsed : [parsed]
  if (!list.length) throw new Error(`[auth] signing_keys_path: ${path} holds no keys`)
  return list.map((raw, index) => parseKey(raw, index, path))
}
