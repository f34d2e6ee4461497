import type { Hono } from 'hono'
import type { ServiceContext } from '../context.ts'
import type { Transaction } from '../db/database.ts'
import { AuthError, forbidden, unprocessable, validation } from './errors.ts'
import { type Body, normaliseEmail, readBody, str } from './http.ts'
import {
  type Confirmation,
  confirmEmailChange,
  emailChangeTokenTypes,
  singleConfirmation,
} from './email-change.ts'
import { type LinkKind, tokenHash, tokenTypeOf } from './mail.ts'
import { type FlowKind, PKCE_PREFIX, issueAuthCode } from './pkce.ts'
import { redirectTarget } from './redirect.ts'
import { type SessionJson, startSession } from './sessions.ts'
import { upsertEmailIdentitySql } from './users.ts'

// POST /verify (OTP or token hash → session) and GET /verify (the mailed link → 303 to
// the app with the session in the fragment), internal/api/verify.go.

const OTP_LIFETIME = '1 hour'

/** The token types each verification type accepts. */
const accepted: Record<string, string[]> = {
  signup: [tokenTypeOf.signup],
  invite: [tokenTypeOf.invite],
  magiclink: [tokenTypeOf.magiclink, tokenTypeOf.signup],
  recovery: [tokenTypeOf.recovery],
  email_change: emailChangeTokenTypes,
  email: [tokenTypeOf.signup, tokenTypeOf.magiclink],
  // No SMS provider here, so no phone OTP ever exists: these types can only fail as expired.
  sms: [],
  phone_change: [],
} satisfies Record<LinkKind | 'email' | 'sms' | 'phone_change', string[]>

const consumeSql = `delete from auth.one_time_tokens
  where token_hash = $1 and token_type = any($2::text[])
    and created_at > now() - interval '${OTP_LIFETIME}'
  returning user_id, token_type`

const confirmSql = `update auth.users set email_confirmed_at = coalesce(email_confirmed_at, now()),
    updated_at = now()
  where id = $1 returning email`

/** Consumes the token and applies what it confirms; null when it is unknown or expired. */
async function confirm(
  ctx: ServiceContext,
  tx: Transaction,
  hash: string,
  type: string,
): Promise<Confirmation | null> {
  const types = accepted[type]
  if (!types) throw validation(`Unsupported verification type: ${type}`)
  const { rows } = await tx.query<{ user_id: string; token_type: string }>(consumeSql, [
    hash,
    types,
  ])
  const token = rows[0]
  if (!token) return null
  if (type === 'email_change') return confirmEmailChange(ctx, tx, token)
  const confirmed = await tx.query<{ email: string }>(confirmSql, [token.user_id])
  await tx.query(upsertEmailIdentitySql, [token.user_id, confirmed.rows[0]!.email])
  return { userId: token.user_id }
}

/** Confirms the token and starts a session (the implicit flow). */
async function verifyToSession(
  ctx: ServiceContext,
  hash: string,
  type: string,
  failure: string,
): Promise<SessionJson | 'pending'> {
  const result = await ctx.db.asService(async (tx) => {
    const confirmed = await confirm(ctx, tx, hash, type)
    if (!confirmed || confirmed === 'pending') return confirmed
    return startSession(ctx, tx, confirmed.userId, 'otp')
  })
  if (!result) throw forbidden('otp_expired', failure)
  return result
}

/** Confirms a `pkce_` link's token and issues the flow's auth code instead of a session. */
async function verifyToCode(
  ctx: ServiceContext,
  hash: string,
  type: string,
): Promise<{ code: string } | 'pending'> {
  return ctx.db.asService(async (tx) => {
    const confirmed = await confirm(ctx, tx, hash, type)
    if (!confirmed) throw forbidden('otp_expired', 'Email link is invalid or has expired')
    if (confirmed === 'pending') return confirmed
    // Thrown inside the transaction, so the link stays usable when no flow matches.
    const code =
      type === 'email' ? null : await issueAuthCode(tx, confirmed.userId, type as FlowKind)
    if (!code) throw unprocessable('flow_state_not_found', 'No valid flow state found for user.')
    return { code }
  })
}

const oauthErrors: Record<number, string> = {
  400: 'invalid_request',
  401: 'unauthorized_client',
  403: 'access_denied',
  500: 'server_error',
}

const e164 = /^[1-9][0-9]{1,14}$/

/** The token hash a POST /verify names, checked in GoTrue's VerifyParams.Validate order. */
function hashToVerify(body: Body): string {
  const token = str(body, 'token')
  const tokenHashParam = str(body, 'token_hash')
  const email = str(body, 'email')
  const phone = str(body, 'phone')
  if (!token === !tokenHashParam) throw validation('Verify requires either a token or a token hash')
  if (tokenHashParam) {
    if (email || phone || str(body, 'redirect_to'))
      throw validation('Only the token_hash and type should be provided')
    return tokenHashParam.replace(PKCE_PREFIX, '')
  }
  if (phone && !email) {
    const digits = phone.replace(/^\+/, '').replaceAll(' ', '')
    if (!e164.test(digits)) throw validation('Invalid phone number format (E.164 required)')
    return tokenHash(digits, token!.trim())
  }
  if (!email || phone) {
    throw validation('Only an email address or phone number should be provided on verify')
  }
  let address: string
  try {
    address = normaliseEmail(email)
  } catch {
    throw unprocessable('validation_failed', 'Invalid email format')
  }
  return tokenHash(address, token!.trim())
}

export function verifyRoutes(app: Hono, ctx: ServiceContext): void {
  app.post('/verify', async (c) => {
    const body = await readBody(c)
    const type = str(body, 'type')
    if (!type) throw validation('Verify requires a verification type')
    const hash = hashToVerify(body)
    const result = await verifyToSession(ctx, hash, type, 'Token has expired or is invalid')
    if (result === 'pending') return c.json({ msg: singleConfirmation, code: '200' })
    return c.json(result)
  })

  app.get('/verify', async (c) => {
    const { token = '', type = '', redirect_to: requested } = c.req.query()
    const target = new URL(redirectTarget(ctx.config.auth, requested))
    target.hash = ''
    const pkce = token.startsWith(PKCE_PREFIX)
    const hash = pkce ? token.slice(PKCE_PREFIX.length) : token
    try {
      if (!hash || !type) throw validation('Verify requires a token and a type')
      const result = pkce
        ? await verifyToCode(ctx, hash, type)
        : await verifyToSession(ctx, hash, type, 'Email link is invalid or has expired')
      if (result === 'pending') {
        // prepRedirectURL: the message in the fragment, and in the query for PKCE too.
        if (pkce) target.searchParams.set('message', singleConfirmation)
        target.hash = new URLSearchParams({ message: singleConfirmation, sb: '' }).toString()
      } else if ('code' in result) {
        target.searchParams.set('code', result.code)
      } else {
        // GoTrue's AccessTokenResponse.AsRedirectURL: sorted keys, `sb` marks the redirect.
        target.hash = new URLSearchParams({
          access_token: result.access_token,
          expires_at: String(result.expires_at),
          expires_in: String(result.expires_in),
          refresh_token: result.refresh_token,
          sb: '',
          token_type: 'bearer',
          type,
        }).toString()
      }
    } catch (error) {
      if (!(error instanceof AuthError)) throw error
      // prepErrorRedirectURL: always in the fragment, and in the query for PKCE too.
      const params = new URLSearchParams({
        error: oauthErrors[error.status] ?? 'invalid_request',
        error_code: error.code,
        error_description: error.message,
      })
      if (pkce) for (const [key, value] of params) target.searchParams.set(key, value)
      params.set('sb', '')
      target.hash = params.toString()
    }
    return c.redirect(target.toString(), 303)
  })
}
