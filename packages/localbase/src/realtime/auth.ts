import { decodeJwt } from 'jose'
import type { Database } from '../db/database.ts'
import { withJobKey } from '../db/work-queue.ts'
import type { CallerResolver } from '../gateway/caller.ts'

export type Claims = Record<string, unknown>

export type TokenResult = { ok: true; role: string; claims: Claims } | { ok: false; reason: string }

/**
 * Checks the token a channel joins with, as RealtimeChannel.confirm_token does: a JWT signed
 * with the project secret carrying `role` and `exp`. `sb_` keys stand for their role, as the
 * hosted gateway swaps them for the matching legacy key. Reasons use hosted wording.
 */
export async function confirmToken(callers: CallerResolver, token: string): Promise<TokenResult> {
  if (token.startsWith('sb_')) {
    const resolved = await callers.resolve(token, null)
    if (!resolved.ok)
      return { ok: false, reason: 'JwtSignatureError: Failed to validate JWT signature' }
    return { ok: true, role: resolved.caller.role, claims: resolved.caller.claims }
  }
  const verified = await callers.verify(token)
  if (!verified.ok) {
    if (verified.error.kind === 'expired_jwt') {
      const exp = Number(decodeJwt(token).exp)
      const ago = Math.floor(Date.now() / 1000) - exp
      return { ok: false, reason: `InvalidJWTToken: Token has expired ${ago} seconds ago` }
    }
    return token.split('.').length === 3
      ? { ok: false, reason: 'JwtSignatureError: Failed to validate JWT signature' }
      : { ok: false, reason: 'MalformedJWT: The token provided is not a valid JWT' }
  }
  const { role, exp } = verified.claims
  if (typeof role !== 'string' || !role || typeof exp !== 'number') {
    return { ok: false, reason: 'InvalidJWTToken: Fields `role` and `exp` are required in JWT' }
  }
  return { ok: true, role, claims: verified.claims }
}

export type Access = { read: boolean; write: boolean }
export type Policies = { broadcast: Access; presence: Access }

export const DENIED: Policies = {
  broadcast: { read: false, write: false },
  presence: { read: false, write: false },
}

/**
 * Private channels (docs §4.6, Realtime's Authorization): in one rolled-back transaction, probe
 * rows for the topic (extension `broadcast` and `presence`) are written as the owner; then,
 * under the caller's role and claims with `realtime.topic` set, SELECT decides read and
 * INSERT decides write, for each extension.
 */
export function channelPolicies(
  db: Database,
  topic: string,
  role: string,
  claims: Claims,
): Promise<Policies> {
  return withJobKey('realtime channel policies', () => probePolicies(db, topic, role, claims))
}

async function probePolicies(
  db: Database,
  topic: string,
  role: string,
  claims: Claims,
): Promise<Policies> {
  let policies = DENIED
  await db
    .asService(async (tx) => {
      await tx.query(
        `insert into realtime.messages (topic, extension, private) values ($1, 'broadcast', true), ($1, 'presence', true)`,
        [topic],
      )
      await tx.query(
        `select set_config('role', $1, true), set_config('request.jwt.claims', $2, true),
          set_config('request.jwt.claim.sub', coalesce($2::jsonb ->> 'sub', ''), true),
          set_config('request.jwt.claim.role', $1, true), set_config('realtime.topic', $3, true)`,
        [role, JSON.stringify(claims), topic],
      )
      const { rows } = await tx.query<{ extension: string }>(
        `select distinct extension from realtime.messages where topic = $1`,
        [topic],
      )
      const readable = new Set(rows.map((r) => r.extension))
      const canWrite = async (extension: string) => {
        await tx.exec('savepoint probe_write')
        try {
          await tx.query(
            `insert into realtime.messages (topic, extension, private) values ($1, $2, true)`,
            [topic, extension],
          )
          return true
        } catch {
          await tx.exec('rollback to savepoint probe_write')
          return false
        }
      }
      policies = {
        broadcast: { read: readable.has('broadcast'), write: await canWrite('broadcast') },
        presence: { read: readable.has('presence'), write: await canWrite('presence') },
      }
      throw rollback
    })
    .catch((error: unknown) => {
      if (error !== rollback) throw error
    })
  return policies
}

// Thrown to end the probe transaction without keeping anything it wrote.
const rollback = new Error('rollback probe')
