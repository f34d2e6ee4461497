import { randomBytes } from 'node:crypto'
import { isIP } from 'node:net'
import { SignJWT } from 'jose'
import type { Transaction } from '../db/database.ts'
import type { ServiceContext } from '../context.ts'

export type UserJson = Record<string, unknown> & { id: string }
export type AmrEntry = { method: string; timestamp: number }

/** The session JSON of docs §3.4 (`AccessTokenResponse`). */
export type SessionJson = {
  access_token: string
  token_type: 'bearer'
  expires_in: number
  expires_at: number
  refresh_token: string
  user: UserJson
}

/** GoTrue's v1 refresh tokens are short opaque strings. */
export const newRefreshToken = (): string => randomBytes(12).toString('base64url')

// Methods that prove a second factor (models.AMRClaim.IsAAL2Claim).
const secondFactors = new Set(['totp', 'mfa/phone', 'mfa/webauthn'])

/** A session's assurance level follows from how it authenticated (CalculateAALAndAMR). */
export const aalOf = (amr: AmrEntry[]): 'aal1' | 'aal2' =>
  amr.some((entry) => secondFactors.has(entry.method)) ? 'aal2' : 'aal1'

/** The `amr` claim lists the most recent method first, as GoTrue orders it. */
export const amrSql = (session: string) =>
  `(select coalesce(jsonb_agg(jsonb_build_object('method', authentication_method,
      'timestamp', extract(epoch from updated_at)::bigint) order by updated_at desc), '[]')
    from auth.mfa_amr_claims where session_id = ${session})`

/** Signs the access token with exactly the claims of docs §3.5, in GoTrue's order. */
export async function signAccessToken(
  ctx: ServiceContext,
  user: UserJson,
  sessionId: string,
  amr: AmrEntry[],
): Promise<{ token: string; iat: number; exp: number }> {
  const iat = Math.floor(Date.now() / 1000)
  const exp = iat + ctx.config.auth.jwtExpiry
  const claims = {
    iss: `${ctx.url}/auth/v1`,
    sub: user.id,
    aud: 'authenticated',
    exp,
    iat,
    email: user.email,
    phone: user.phone,
    app_metadata: user.app_metadata,
    user_metadata: user.user_metadata,
    role: user.role || 'authenticated',
    aal: aalOf(amr),
    amr,
    session_id: sessionId,
    is_anonymous: user.is_anonymous,
  }
  // With signing keys, the first one signs and names itself (kid) so verifiers pick its
  // public half from the JWKS; without, the legacy HS256 secret signs.
  const [current] = ctx.config.auth.signingKeys
  const token = current
    ? await new SignJWT(claims)
        .setProtectedHeader({ alg: current.alg, kid: current.kid, typ: 'JWT' })
        .sign(current.privateKey)
    : await new SignJWT(claims)
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .sign(new TextEncoder().encode(ctx.config.keys.jwtSecret))
  return { token, iat, exp }
}

export async function sessionJson(
  ctx: ServiceContext,
  user: UserJson,
  sessionId: string,
  amr: AmrEntry[],
  refreshToken: string,
): Promise<SessionJson> {
  const { token, exp } = await signAccessToken(ctx, user, sessionId, amr)
  return {
    access_token: token,
    token_type: 'bearer',
    expires_in: ctx.config.auth.jwtExpiry,
    expires_at: exp,
    refresh_token: refreshToken,
    user,
  }
}

// One statement: the session, how it authenticated, its first refresh token, and the
// user's last sign-in, returning the updated user.
const startSql = `with s as (
    insert into auth.sessions (id, user_id, created_at, updated_at, aal, refreshed_at, user_agent, ip)
    values (gen_random_uuid(), $1::uuid, now(), now(), 'aal1', now(), $4, $5::inet) returning id
  ), amr as (
    insert into auth.mfa_amr_claims (session_id, created_at, updated_at, authentication_method, id)
    select id, now(), now(), $2, gen_random_uuid() from s
  ), rt as (
    insert into auth.refresh_tokens (instance_id, token, user_id, revoked, created_at, updated_at, session_id)
    select '00000000-0000-0000-0000-000000000000', $3, $1::uuid::text, false, now(), now(), id from s
  ), i as (
    update auth.identities set last_sign_in_at = now() where user_id = $1::uuid
  ), u as (
    update auth.users set last_sign_in_at = now() where id = $1::uuid
    returning _localbase.auth_user(users) as json
  )
  select s.id as session_id, u.json as user,
    extract(epoch from now())::bigint as now
  from s, u`

/** Starts a session for a user inside the caller's transaction and returns its JSON. */
export async function startSession(
  ctx: ServiceContext,
  tx: Transaction,
  userId: string,
  method: string,
  client: { userAgent?: string; ip?: string } = {},
): Promise<SessionJson> {
  const refreshToken = newRefreshToken()
  // x-forwarded-for is whatever the client says; only a real address goes into inet.
  const ip = client.ip && isIP(client.ip) ? client.ip : null
  const { rows } = await tx.query<{ session_id: string; user: UserJson; now: number }>(startSql, [
    userId,
    method,
    refreshToken,
    client.userAgent ?? null,
    ip,
  ])
  const row = rows[0]!
  const amr = [{ method, timestamp: Number(row.now) }]
  return sessionJson(ctx, row.user, row.session_id, amr, refreshToken)
}
