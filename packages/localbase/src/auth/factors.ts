import { isIP } from 'node:net'
import type { Context, Hono } from 'hono'
import { renderSVG } from 'uqr'
import type { ServiceContext } from '../context.ts'
import type { Transaction } from '../db/database.ts'
import { clientAddress } from '../gateway/client-address.ts'
import { AuthError, forbidden, unprocessable, validation } from './errors.ts'
import { type Authenticated, isUuid, requireUser } from './guard.ts'
import { readBody, str } from './http.ts'
import {
  type AmrEntry,
  type SessionJson,
  type UserJson,
  amrSql,
  newRefreshToken,
  sessionJson,
} from './sessions.ts'
import { matchTotp, newTotpSecret, totpUri } from './totp.ts'

// TOTP multi-factor authentication (internal/api/mfa.go): enrol, challenge, verify, unenrol.

/** How long a challenge may be answered (GoTrue's MFA_CHALLENGE_EXPIRY_DURATION). */
const CHALLENGE_SECONDS = 300
/** An unverified factor older than this is abandoned (MFA_FACTOR_EXPIRY_DURATION). */
const UNVERIFIED_SECONDS = 300
const MAX_VERIFIED_FACTORS = 10

export type FactorRow = {
  id: string
  user_id: string
  factor_type: string
  status: 'verified' | 'unverified'
  secret: string | null
  json: Record<string, unknown>
}

const enrollDisabled: Record<string, () => AuthError> = {
  phone: () => unprocessable('mfa_phone_enroll_not_enabled', 'MFA enroll is disabled for Phone'),
  webauthn: () =>
    unprocessable('mfa_webauthn_enroll_not_enabled', 'MFA enroll is disabled for WebAuthn'),
  totp: () => unprocessable('mfa_totp_enroll_not_enabled', 'MFA enroll is disabled for TOTP'),
}
const verifyDisabled = () =>
  unprocessable('mfa_totp_verify_not_enabled', 'MFA verification is disabled for TOTP')
const badFactorType = () => validation('factor_type needs to be totp, phone, or webauthn')

/** GoTrue's requireAuthentication then requireNotAnonymous, in front of every /factors route. */
async function requireMember(ctx: ServiceContext, c: Context): Promise<Authenticated> {
  const who = await requireUser(ctx, c)
  if (who.user.user.is_anonymous) {
    throw forbidden('no_authorization', 'Anonymous user not allowed to perform these actions')
  }
  return who
}

const factorSql = `select id, user_id, factor_type::text, status::text, secret,
    _localbase.auth_factor(f) as json
  from auth.mfa_factors f where id = $1 and user_id = $2`

/** The factor named in the path, owned by the user (admin.go loadFactor). */
export async function loadFactor(tx: Transaction, userId: string, id: string): Promise<FactorRow> {
  if (!isUuid(id)) throw new AuthError(404, 'validation_failed', 'factor_id must be an UUID')
  const factor = (await tx.query<FactorRow>(factorSql, [id, userId])).rows[0]
  if (!factor) throw new AuthError(404, 'mfa_factor_not_found', 'Factor not found')
  return factor
}

/** Removes a factor and lowers the sessions it raised back to AAL1 (DowngradeSessionsToAAL1). */
export async function removeFactor(tx: Transaction, factor: FactorRow): Promise<void> {
  await tx.query(
    `with s as (
       update auth.sessions set aal = 'aal1', factor_id = null, updated_at = now()
       where user_id = $2 and factor_id = $1 returning id
     ), amr as (
       delete from auth.mfa_amr_claims where session_id in (select id from s)
         and authentication_method = 'totp'
     )
     delete from auth.mfa_factors where id = $1`,
    [factor.id, factor.user_id],
  )
}

/** The checks before a new factor (mfa.go validateFactors). */
async function checkRoom(
  ctx: ServiceContext,
  tx: Transaction,
  who: Authenticated,
  name: string,
): Promise<void> {
  await tx.query(
    `delete from auth.mfa_factors where user_id = $1 and status = 'unverified'
       and created_at < now() - make_interval(secs => $2)`,
    [who.user.id, UNVERIFIED_SECONDS],
  )
  const { rows } = await tx.query<{ total: number; verified: number; named: boolean }>(
    `select count(*)::int as total, count(*) filter (where status = 'verified')::int as verified,
       coalesce(bool_or(coalesce(friendly_name, '') = $2), false) as named
     from auth.mfa_factors where user_id = $1`,
    [who.user.id, name],
  )
  const { total, verified, named } = rows[0]!
  if (named) {
    throw unprocessable(
      'mfa_factor_name_conflict',
      `A factor with the friendly name ${JSON.stringify(name)} for this user already exists`,
    )
  }
  if (total >= ctx.config.auth.mfa.maxEnrolledFactors || verified >= MAX_VERIFIED_FACTORS) {
    throw unprocessable(
      'too_many_enrolled_mfa_factors',
      'Maximum number of verified factors reached, unenroll to continue',
    )
  }
  if (verified > 0 && who.sessionId && who.aal !== 'aal2') {
    throw forbidden('insufficient_aal', 'AAL2 required to enroll a new factor')
  }
}

/** The host of the site URL names the account in authenticator apps unless an issuer is given. */
function defaultIssuer(ctx: ServiceContext): string {
  try {
    return new URL(ctx.config.auth.siteUrl).host
  } catch {
    throw new AuthError(500, 'unexpected_failure', 'site url is improperly formatted')
  }
}

async function enroll(ctx: ServiceContext, c: Context) {
  const who = await requireMember(ctx, c)
  const body = await readBody(c)
  const type = str(body, 'factor_type') ?? ''
  const name = str(body, 'friendly_name') ?? ''
  if (type === 'webauthn' && ctx.config.auth.mfa.webauthnEnrollEnabled) {
    return c.json(await enrollWebAuthn(ctx, who, name))
  }
  if (type !== 'totp') throw enrollDisabled[type]?.() ?? badFactorType()
  if (!ctx.config.auth.mfa.totpEnrollEnabled) throw enrollDisabled.totp!()
  const issuer = str(body, 'issuer') || defaultIssuer(ctx)
  const secret = newTotpSecret()
  const uri = totpUri(issuer, String(who.user.user.email ?? ''), secret)
  const id = await ctx.db.asService(async (tx) => {
    await checkRoom(ctx, tx, who, name)
    const { rows } = await tx.query<{ id: string }>(
      `insert into auth.mfa_factors (id, user_id, friendly_name, factor_type, status, created_at,
         updated_at, secret)
       values (gen_random_uuid(), $1, $2, 'totp', 'unverified', now(), now(), $3) returning id`,
      [who.user.id, name, secret],
    )
    return rows[0]!.id
  })
  // The SVG itself, as GoTrue sends it; supabase-js turns it into a data: URI.
  return c.json({
    id,
    type: 'totp',
    friendly_name: name,
    totp: { qr_code: renderSVG(uri, { ecc: 'H' }), secret, uri },
  })
}

/**
 * A WebAuthn factor as GoTrue enrols one (mfa.go enrollWebAuthnFactor): an unverified row and
 * no credential yet. The credential would arrive with the first challenge's ceremony, which
 * localbase does not run, so the factor stays unverified until it is unenrolled or expires.
 */
async function enrollWebAuthn(ctx: ServiceContext, who: Authenticated, name: string) {
  const id = await ctx.db.asService(async (tx) => {
    await checkRoom(ctx, tx, who, name)
    const { rows } = await tx.query<{ id: string }>(
      `insert into auth.mfa_factors (id, user_id, friendly_name, factor_type, status, created_at,
         updated_at)
       values (gen_random_uuid(), $1, $2, 'webauthn', 'unverified', now(), now()) returning id`,
      [who.user.id, name],
    )
    return rows[0]!.id
  })
  return { id, type: 'webauthn', friendly_name: name }
}

/** The client's address as the inet a challenge records (a socket may have none). */
function clientIp(c: Context): string {
  const address = clientAddress(c)
  return isIP(address) ? address : '0.0.0.0'
}

async function challenge(ctx: ServiceContext, c: Context) {
  const who = await requireMember(ctx, c)
  const ip = clientIp(c)
  const answer = await ctx.db.asService(async (tx) => {
    const factor = await loadFactor(tx, who.user.id, c.req.param('id')!)
    if (factor.factor_type !== 'totp') throw badFactorType()
    if (!ctx.config.auth.mfa.totpVerifyEnabled) throw verifyDisabled()
    const { rows } = await tx.query<{ id: string; expires_at: number }>(
      `with c as (
         insert into auth.mfa_challenges (id, factor_id, created_at, ip_address)
         values (gen_random_uuid(), $1, now(), $2::inet) returning id, created_at
       ), f as (
         update auth.mfa_factors set last_challenged_at = now(), updated_at = now() where id = $1
       )
       select id, extract(epoch from created_at + make_interval(secs => $3))::bigint as expires_at
       from c`,
      [factor.id, ip, CHALLENGE_SECONDS],
    )
    return rows[0]!
  })
  return c.json({ id: answer.id, type: 'totp', expires_at: Number(answer.expires_at) })
}

type ChallengeRow = { verified: boolean; same_ip: boolean; expired: boolean }
type VerifyOutcome = SessionJson | AuthError

const verificationFailed = () =>
  unprocessable('mfa_verification_failed', 'Invalid TOTP code entered')

// On success, in one statement: the challenge and factor verified, the step spent, the
// session raised to AAL2 with a fresh refresh token, the user's AAL1 sessions and other
// unverified TOTP factors gone (verifyTOTPFactor, updateMFASessionAndClaims).
const succeedSql = `with ch as (
    update auth.mfa_challenges set verified_at = now() where id = $1
  ), f as (
    update auth.mfa_factors set status = 'verified', updated_at = now() where id = $2
  ), st as (
    insert into _localbase.totp_steps (factor_id, step) values ($2, $3)
    on conflict (factor_id) do update set step = excluded.step
  ), amr as (
    insert into auth.mfa_amr_claims (session_id, created_at, updated_at, authentication_method, id)
    values ($4, now(), now(), 'totp', gen_random_uuid())
    on conflict (session_id, authentication_method) do update set updated_at = now()
  ), s as (
    update auth.sessions set aal = 'aal2', factor_id = $2, updated_at = now() where id = $4
  ), old as (
    update auth.refresh_tokens set revoked = true, updated_at = now()
    where session_id = $4 and not revoked returning token
  ), rt as (
    insert into auth.refresh_tokens (instance_id, token, user_id, revoked, created_at, updated_at,
      parent, session_id)
    values ('00000000-0000-0000-0000-000000000000', $5, $6::uuid::text, false, now(), now(),
      (select max(token) from old), $4)
  ), others as (
    delete from auth.sessions where user_id = $6 and id <> $4 and aal < 'aal2'
  ), unverified as (
    delete from auth.mfa_factors where user_id = $6 and id <> $2 and status = 'unverified'
      and factor_type = 'totp'
  )
  select _localbase.auth_user(u) as user from auth.users u where u.id = $6`

async function verifyCode(
  ctx: ServiceContext,
  tx: Transaction,
  who: Authenticated & { sessionId: string },
  factorId: string,
  challengeId: string,
  code: string,
  ip: string,
): Promise<VerifyOutcome> {
  const factor = await loadFactor(tx, who.user.id, factorId)
  if (factor.factor_type !== 'totp') throw badFactorType()
  if (!ctx.config.auth.mfa.totpVerifyEnabled) throw verifyDisabled()
  const found = await tx.query<ChallengeRow>(
    `select verified_at is not null as verified, ip_address = $4::inet as same_ip,
       created_at + make_interval(secs => $3) < now() as expired
     from auth.mfa_challenges where id = $1 and factor_id = $2`,
    [challengeId, factor.id, CHALLENGE_SECONDS, ip],
  )
  const row = found.rows[0]
  if (!row) {
    throw unprocessable(
      'mfa_factor_not_found',
      'MFA factor with the provided challenge ID not found',
    )
  }
  // A challenge answers once, from the address that asked for it.
  if (row.verified || !row.same_ip) {
    throw unprocessable('mfa_ip_address_mismatch', 'Challenge and verify IP addresses mismatch.')
  }
  if (row.expired) {
    // The expired challenge goes, and that must commit: returned, not thrown.
    await tx.query('delete from auth.mfa_challenges where id = $1', [challengeId])
    return unprocessable(
      'mfa_challenge_expired',
      `MFA challenge ${challengeId} has expired, verify against another challenge or create a new challenge.`,
    )
  }
  const step = matchTotp(factor.secret ?? '', code)
  const last = await tx.query<{ step: string }>(
    'select step from _localbase.totp_steps where factor_id = $1',
    [factor.id],
  )
  // A code already accepted (or an older one) is refused: a watched code cannot be replayed.
  if (step === null || (last.rows[0] && step <= Number(last.rows[0].step))) {
    return verificationFailed()
  }
  const refreshToken = newRefreshToken()
  const { rows } = await tx.query<{ user: UserJson }>(succeedSql, [
    challengeId,
    factor.id,
    step,
    who.sessionId,
    refreshToken,
    who.user.id,
  ])
  const amr = await tx.query<{ amr: AmrEntry[] }>(`select ${amrSql('$1')} as amr`, [who.sessionId])
  return sessionJson(ctx, rows[0]!.user, who.sessionId, amr.rows[0]!.amr, refreshToken)
}

async function verify(ctx: ServiceContext, c: Context) {
  const who = await requireMember(ctx, c)
  const body = await readBody(c)
  const challengeId = str(body, 'challenge_id')
  const code = str(body, 'code') ?? ''
  if (!code) throw validation('Code needs to be non-empty')
  if (!isUuid(challengeId)) throw validation('challenge_id must be an UUID')
  const sessionId = who.sessionId
  if (!sessionId) {
    throw forbidden('session_not_found', 'A valid session is required to verify a factor')
  }
  const ip = clientIp(c)
  const outcome = await ctx.db.asService((tx) =>
    verifyCode(ctx, tx, { ...who, sessionId }, c.req.param('id')!, challengeId, code.trim(), ip),
  )
  if (outcome instanceof AuthError) throw outcome
  return c.json(outcome)
}

async function unenroll(ctx: ServiceContext, c: Context) {
  const who = await requireMember(ctx, c)
  const id = await ctx.db.asService(async (tx) => {
    const factor = await loadFactor(tx, who.user.id, c.req.param('id')!)
    if (factor.status === 'verified' && who.aal !== 'aal2') {
      throw unprocessable('insufficient_aal', 'AAL2 required to unenroll verified factor')
    }
    await removeFactor(tx, factor)
    return factor.id
  })
  return c.json({ id })
}

export function factorRoutes(app: Hono, ctx: ServiceContext): void {
  app.post('/factors', (c) => enroll(ctx, c))
  app.post('/factors/:id/challenge', (c) => challenge(ctx, c))
  app.post('/factors/:id/verify', (c) => verify(ctx, c))
  app.delete('/factors/:id', (c) => unenroll(ctx, c))
}
