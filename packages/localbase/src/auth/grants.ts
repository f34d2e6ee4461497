import type { Hono } from 'hono'
import type { ServiceContext } from '../context.ts'
import type { Transaction } from '../db/database.ts'
import { clientOf } from './client.ts'
import { web3Disabled } from './disabled.ts'
import { AuthError, badRequest, validation } from './errors.ts'
import { type Body, readBody, str } from './http.ts'
import { idTokenGrant } from './id-token.ts'
import { verifyPassword } from './passwords.ts'
import { authLimits } from './limits.ts'
import { exchangeCode } from './pkce.ts'
import {
  type AmrEntry,
  type SessionJson,
  type UserJson,
  amrSql,
  newRefreshToken,
  sessionJson,
  startSession,
} from './sessions.ts'
import { findByEmail } from './users.ts'

// POST /token (internal/api/token.go, internal/tokens/service.go).

const invalidCredentials = () => badRequest('invalid_credentials', 'Invalid login credentials')

async function passwordGrant(
  ctx: ServiceContext,
  body: Body,
  client: ReturnType<typeof clientOf>,
  signal: AbortSignal,
): Promise<SessionJson> {
  const email = str(body, 'email')
  const phone = str(body, 'phone')
  const password = str(body, 'password') ?? ''
  if (email && phone) {
    throw validation('Only an email address or phone number should be provided on login.')
  }
  if (!email && !phone) throw validation('missing email or phone')
  const account = (email ?? phone ?? '').trim().toLowerCase()
  // Unknown accounts are guarded alike, so the guard does not tell which ones exist.
  const user = await authLimits(ctx).passwords.check(account, client.ip, signal, async () => {
    if (!email) return null
    // bcrypt runs outside the transaction: PGlite is one connection.
    const found = await ctx.db.asService((tx) => findByEmail(tx, account))
    return found && (await verifyPassword(password, found.encrypted_password)) ? found : null
  })
  if (!user) throw invalidCredentials()
  if (user.banned) throw badRequest('user_banned', 'User is banned')
  if (!user.confirmed) throw badRequest('email_not_confirmed', 'Email not confirmed')
  return ctx.db.asService((tx) => startSession(ctx, tx, user.id, 'password', client))
}

type TokenRow = {
  id: string
  revoked: boolean
  session_id: string | null
  age: number
  active: string | null
  active_parent: string | null
  has_session: boolean
  banned: boolean
}

const lookupSql = `select rt.id, rt.revoked, rt.session_id,
    extract(epoch from now() - rt.updated_at)::float8 as age,
    a.token as active, a.parent as active_parent,
    exists (select 1 from auth.sessions s where s.id = rt.session_id) as has_session,
    coalesce((select u.banned_until > now() from auth.users u where u.id::text = rt.user_id), false)
      as banned
  from auth.refresh_tokens rt
  left join lateral (
    select token, parent from auth.refresh_tokens
    where session_id = rt.session_id and not revoked order by id desc limit 1
  ) a on true
  where rt.token = $1`

// Rotates (when $4) and loads what the new access token needs, in one statement.
const rotateSql = `with old as (
    update auth.refresh_tokens set revoked = true, updated_at = now() where id = $1 and $4
    returning user_id, token
  ), child as (
    insert into auth.refresh_tokens (instance_id, token, user_id, revoked, created_at, updated_at,
      parent, session_id)
    select '00000000-0000-0000-0000-000000000000', $2, user_id, false, now(), now(), token, $3
    from old
  ), s as (
    update auth.sessions set refreshed_at = now(), updated_at = now() where id = $3 and $4
  )
  select _localbase.auth_user(u) as user, ${amrSql('$3')} as amr
  from auth.users u where u.id = (select user_id from auth.sessions where id = $3)`

type RefreshOutcome = SessionJson | AuthError

async function refresh(
  ctx: ServiceContext,
  tx: Transaction,
  token: string,
): Promise<RefreshOutcome> {
  const row = (await tx.query<TokenRow>(lookupSql, [token])).rows[0]
  if (!row) {
    return badRequest('refresh_token_not_found', 'Invalid Refresh Token: Refresh Token Not Found')
  }
  if (row.banned) return badRequest('user_banned', 'Invalid Refresh Token: User Banned')
  if (!row.session_id || !row.has_session) {
    return badRequest('session_not_found', 'Invalid Refresh Token: No Valid Session Found')
  }
  let issued: string | null = null
  if (row.revoked) {
    const reusable = row.age <= ctx.config.auth.refreshTokenReuseInterval
    if (row.active && (row.active_parent === token || reusable)) {
      // A client that lost the answer to its refresh gets the session's current token.
      issued = row.active
    } else if (!reusable) {
      // Reuse after the interval is treated as theft: with rotation on (the default) the
      // whole session goes, as GoTrue revokes the token family.
      if (ctx.config.auth.refreshTokenRotation) {
        await tx.query('delete from auth.sessions where id = $1', [row.session_id])
      }
      return badRequest('refresh_token_already_used', 'Invalid Refresh Token: Already Used')
    }
  }
  const rotate = issued === null
  issued ??= newRefreshToken()
  const { rows } = await tx.query<{ user: UserJson; amr: AmrEntry[] }>(rotateSql, [
    row.id,
    issued,
    row.session_id,
    rotate,
  ])
  return sessionJson(ctx, rows[0]!.user, row.session_id, rows[0]!.amr, issued)
}

export function tokenRoutes(app: Hono, ctx: ServiceContext): void {
  app.post('/token', async (c) => {
    const grant = c.req.query('grant_type')
    const body = await readBody(c)
    if (grant === 'password') {
      return c.json(await passwordGrant(ctx, body, clientOf(c), c.req.raw.signal))
    }
    if (grant === 'refresh_token') {
      const token = str(body, 'refresh_token')
      if (!token) throw validation('refresh_token required')
      // Errors that revoke a session must still commit, so they are returned, not thrown.
      const outcome = await ctx.db.asService((tx) => refresh(ctx, tx, token))
      if (outcome instanceof AuthError) throw outcome
      return c.json(outcome)
    }
    if (grant === 'pkce') return c.json(await exchangeCode(ctx, body, clientOf(c)))
    if (grant === 'id_token') idTokenGrant(body)
    if (grant === 'web3') throw web3Disabled()
    throw badRequest('invalid_credentials', 'unsupported_grant_type')
  })
}
