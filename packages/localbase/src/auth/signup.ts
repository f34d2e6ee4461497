import { randomUUID } from 'node:crypto'
import type { Hono } from 'hono'
import { clientOf } from './client.ts'
import { unprocessable, validation } from './errors.ts'
import { normaliseEmail, obj, readBody, str } from './http.ts'
import { mailLink } from './mail.ts'
import type { MailingContext } from './mailer.ts'
import { withMail } from './outbox.ts'
import { checkStrength, hashPassword } from './passwords.ts'
import { challengeOf } from './pkce.ts'
import { redirectTarget } from './redirect.ts'
import { startSession } from './sessions.ts'
import { findByEmail, findById, insertUser } from './users.ts'

// POST /signup (internal/api/signup.go, docs §3.3): autoconfirm returns a session,
// otherwise a bare user and a confirmation mail; no email or phone means anonymous.

/** GoTrue's sanitizeUser: what a duplicate signup sees when confirmations are on. */
function obfuscatedUser(email: string, data: Record<string, unknown>) {
  const now = new Date().toISOString()
  return {
    id: randomUUID(),
    aud: 'authenticated',
    role: '',
    email,
    phone: '',
    confirmation_sent_at: now,
    app_metadata: { provider: 'email', providers: ['email'] },
    user_metadata: data,
    identities: [],
    created_at: now,
    updated_at: now,
    is_anonymous: false,
  }
}

export function signupRoutes(app: Hono, ctx: MailingContext): void {
  const auth = ctx.config.auth
  app.post('/signup', async (c) => {
    const body = await readBody(c)
    const email = str(body, 'email')
    const phone = str(body, 'phone')
    const password = str(body, 'password')
    const data = obj(body, 'data') ?? {}
    if (!auth.enableSignup) {
      throw unprocessable('signup_disabled', 'Signups not allowed for this instance')
    }
    if (!email && !phone) {
      if (!auth.enableAnonymousSignIns) {
        throw unprocessable('anonymous_provider_disabled', 'Anonymous sign-ins are disabled')
      }
      const session = await ctx.db.asService(async (tx) => {
        const id = await insertUser(tx, {
          email: null,
          passwordHash: null,
          confirmed: false,
          userMetadata: data,
        })
        return startSession(ctx, tx, id, 'anonymous', clientOf(c))
      })
      return c.json(session)
    }
    if (email && phone) {
      throw validation('Only an email address or phone number should be provided on signup.')
    }
    if (phone) throw unprocessable('phone_provider_disabled', 'Phone signups are disabled')
    if (!password) throw validation('Signup requires a valid password')
    const address = normaliseEmail(email)
    checkStrength(password, auth.minimumPasswordLength)
    const passwordHash = await hashPassword(password)
    const redirectTo = redirectTarget(auth, c.req.query('redirect_to'))
    const autoconfirm = !auth.enableConfirmations
    const pkce = challengeOf(body)

    const result = await withMail(ctx, async (tx, outbox) => {
      const existing = await findByEmail(tx, address)
      if (existing && autoconfirm) {
        throw unprocessable('user_already_exists', 'User already registered')
      }
      if (existing?.confirmed) return obfuscatedUser(address, data)
      const id =
        existing?.id ??
        (await insertUser(tx, {
          email: address,
          passwordHash,
          confirmed: autoconfirm,
          userMetadata: data,
        }))
      if (!existing) outbox.created(id)
      if (autoconfirm) return startSession(ctx, tx, id, 'password', clientOf(c))
      await mailLink(ctx, tx, outbox, { id, email: address }, 'signup', redirectTo, pkce)
      return (await findById(tx, id))!.user
    })
    return c.json(result)
  })
}
