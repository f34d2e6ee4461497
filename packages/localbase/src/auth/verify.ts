import type { Hono } from 'hono'
import type { ServiceContext } from '../context.ts'
import { AuthError, forbidden, validation } from './errors.ts'
import { normaliseEmail, readBody, str } from './http.ts'
import { type LinkKind, tokenHash, tokenTypeOf } from './mail.ts'
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
  email_change: [tokenTypeOf.email_change],
  email: [tokenTypeOf.signup, tokenTypeOf.magiclink],
} satisfies Record<LinkKind | 'email', string[]>

// Consumes the token and applies what it confirms, in one statement.
const consumeSql = `with t as (
    delete from auth.one_time_tokens
    where token_hash = $1 and token_type = any($2::text[])
      and created_at > now() - interval '${OTP_LIFETIME}'
    returning user_id, token_type, relates_to
  )
  update auth.users u set
    email_confirmed_at = coalesce(u.email_confirmed_at, now()),
    email = case when t.token_type = 'email_change_token_new' then t.relates_to else u.email end,
    email_change = case when t.token_type = 'email_change_token_new' then '' else u.email_change end,
    is_anonymous = u.is_anonymous and t.token_type <> 'email_change_token_new',
    updated_at = now()
  from t where u.id = t.user_id
  returning u.id, u.email`

async function consume(
  ctx: ServiceContext,
  hash: string,
  type: string,
  failure: string,
): Promise<SessionJson> {
  const types = accepted[type]
  if (!types) throw validation(`Unsupported verification type: ${type}`)
  const session = await ctx.db.asService(async (tx) => {
    const { rows } = await tx.query<{ id: string; email: string }>(consumeSql, [hash, types])
    const user = rows[0]
    if (!user) return null
    await tx.query(upsertEmailIdentitySql, [user.id, user.email])
    return startSession(ctx, tx, user.id, 'otp')
  })
  if (!session) throw forbidden('otp_expired', failure)
  return session
}

export function verifyRoutes(app: Hono, ctx: ServiceContext): void {
  app.post('/verify', async (c) => {
    const body = await readBody(c)
    const type = str(body, 'type')
    if (!type) throw validation('Verify requires a verification type')
    const tokenHashParam = str(body, 'token_hash')
    const token = str(body, 'token')
    const email = str(body, 'email')
    let hash: string
    if (tokenHashParam) hash = tokenHashParam
    else if (token && email) hash = tokenHash(normaliseEmail(email), token.trim())
    else throw validation('Verify requires either a token or a token hash')
    return c.json(await consume(ctx, hash, type, 'Token has expired or is invalid'))
  })

  app.get('/verify', async (c) => {
    const { token, type, redirect_to: requested } = c.req.query()
    const target = redirectTarget(ctx.config.auth, requested).split('#')[0]!
    let fragment: URLSearchParams
    try {
      if (!token || !type) throw validation('Verify requires a token and a type')
      const session = await consume(ctx, token, type, 'Email link is invalid or has expired')
      fragment = new URLSearchParams({
        access_token: session.access_token,
        expires_at: String(session.expires_at),
        expires_in: String(session.expires_in),
        refresh_token: session.refresh_token,
        token_type: 'bearer',
        type,
      })
    } catch (error) {
      if (!(error instanceof AuthError)) throw error
      fragment = new URLSearchParams({
        error: error.status === 403 ? 'access_denied' : 'invalid_request',
        error_code: error.code,
        error_description: error.message,
      })
    }
    return c.redirect(`${target}#${fragment}`, 303)
  })
}
