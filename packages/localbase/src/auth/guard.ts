import type { Context } from 'hono'
import type { ServiceContext } from '../context.ts'
import { AuthError, forbidden } from './errors.ts'
import { type UserRow, findById } from './users.ts'

// GoTrue's requireAuthentication / requireAdmin (internal/api/auth.go).

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
export const isUuid = (value: unknown): value is string =>
  typeof value === 'string' && uuidPattern.test(value)

function bearer(c: Context): string {
  const token = /^bearer\s+(.+)$/i.exec(c.req.header('authorization') ?? '')?.[1]?.trim()
  if (!token) {
    throw new AuthError(401, 'no_authorization', 'This endpoint requires a valid Bearer token')
  }
  return token
}

const badJwt = (reason: string) =>
  forbidden('bad_jwt', `invalid JWT: unable to parse or verify signature, ${reason}`)

export type Authenticated = {
  user: UserRow
  sessionId: string | null
  /** The session's assurance level as stored (a token's claim may predate a step-up). */
  aal: string | null
}

/** The signed-in user; the session named in the token must still exist. */
export async function requireUser(ctx: ServiceContext, c: Context): Promise<Authenticated> {
  const token = bearer(c)
  const verified = await ctx.callers.verify(token)
  if (!verified.ok) {
    throw badJwt(
      verified.error.kind === 'expired_jwt'
        ? 'token has invalid claims: token is expired'
        : token.split('.').length !== 3
          ? 'token is malformed: token contains an invalid number of segments'
          : 'token signature is invalid: signature is invalid',
    )
  }
  const { sub, session_id: sessionId } = verified.claims
  if (!isUuid(sub)) throw badJwt('invalid claim: missing sub claim')
  const session = isUuid(sessionId) ? sessionId : null
  const found = await ctx.db.asService(async (tx) => {
    const user = await findById(tx, sub)
    if (!user || !session) return { user, session: false, aal: null }
    const { rows } = await tx.query<{ aal: string | null }>(
      'select aal from auth.sessions where id = $1 and user_id = $2',
      [session, sub],
    )
    return { user, session: rows.length > 0, aal: rows[0]?.aal ?? null }
  })
  if (!found.user) throw forbidden('user_not_found', 'User from sub claim in JWT does not exist')
  if (session && !found.session) {
    throw forbidden('session_not_found', 'Session from session_id claim in JWT does not exist')
  }
  return { user: found.user, sessionId: session, aal: found.aal }
}

const adminRoles = new Set(['service_role', 'supabase_admin'])

/** Admin endpoints take the service key (legacy JWT or sb_secret_) as the bearer. */
export async function requireAdmin(ctx: ServiceContext, c: Context): Promise<void> {
  bearer(c)
  const result = await ctx.callers.resolve(
    c.req.header('apikey') ?? null,
    c.req.header('authorization') ?? null,
  )
  if (!result.ok) throw badJwt(result.error.message)
  if (!adminRoles.has(result.caller.role)) throw forbidden('not_admin', 'User not allowed')
}
