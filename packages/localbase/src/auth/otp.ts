import type { Hono } from 'hono'
import { requestEmailChange } from './email-change.ts'
import { unprocessable, validation } from './errors.ts'
import { bool, normaliseEmail, obj, readBody, str } from './http.ts'
import { mailLink } from './mail.ts'
import type { MailingContext } from './mailer.ts'
import { withMail } from './outbox.ts'
import { challengeOf } from './pkce.ts'
import { redirectTarget } from './redirect.ts'
import { findByEmail, insertUser } from './users.ts'

// Mail-sending endpoints: POST /otp (magic link), /recover, /resend. Like GoTrue they
// answer {} whether or not the address is known, so they do not reveal users.

export function otpRoutes(app: Hono, ctx: MailingContext): void {
  const auth = ctx.config.auth

  app.post('/otp', async (c) => {
    const body = await readBody(c)
    if (str(body, 'phone'))
      throw unprocessable('phone_provider_disabled', 'Phone logins are disabled')
    const email = normaliseEmail(str(body, 'email'))
    const createUser = bool(body, 'create_user') ?? true
    const data = obj(body, 'data') ?? {}
    const pkce = challengeOf(body)
    const redirectTo = redirectTarget(auth, c.req.query('redirect_to'))
    await withMail(ctx, async (tx, outbox) => {
      const existing = await findByEmail(tx, email)
      if (existing?.confirmed) {
        await mailLink(ctx, tx, outbox, { id: existing.id, email }, 'magiclink', redirectTo, pkce)
        return
      }
      if (!existing && (!createUser || !auth.enableSignup)) {
        throw unprocessable('otp_disabled', 'Signups not allowed for otp')
      }
      // A new or unconfirmed user gets a confirmation link, which also signs them in.
      const id =
        existing?.id ??
        (await insertUser(tx, { email, passwordHash: null, confirmed: false, userMetadata: data }))
      if (!existing) outbox.created(id)
      await mailLink(ctx, tx, outbox, { id, email }, 'signup', redirectTo, pkce)
    })
    return c.json({})
  })

  app.post('/recover', async (c) => {
    const body = await readBody(c)
    if (!str(body, 'email')) throw validation('Password recovery requires an email')
    const email = normaliseEmail(str(body, 'email'))
    const pkce = challengeOf(body)
    const redirectTo = redirectTarget(auth, c.req.query('redirect_to'))
    await withMail(ctx, async (tx, outbox) => {
      const user = await findByEmail(tx, email)
      if (user) {
        await mailLink(ctx, tx, outbox, { id: user.id, email }, 'recovery', redirectTo, pkce)
      }
    })
    return c.json({})
  })

  app.post('/resend', async (c) => {
    const body = await readBody(c)
    const type = str(body, 'type')
    if (type !== 'signup' && type !== 'email_change') {
      throw validation('Missing one of these types: signup, email_change, sms, phone_change')
    }
    const email = normaliseEmail(str(body, 'email'))
    const pkce = challengeOf(body)
    const redirectTo = redirectTarget(auth, c.req.query('redirect_to'))
    await withMail(ctx, async (tx, outbox) => {
      const user = await findByEmail(tx, email)
      if (!user) return
      if (type === 'signup' && !user.confirmed) {
        await mailLink(ctx, tx, outbox, { id: user.id, email }, 'signup', redirectTo, pkce)
      }
      // The current address asks again; both links are made afresh, as GoTrue's resend.
      const pending = user.user.new_email
      if (type === 'email_change' && typeof pending === 'string') {
        const who = { id: user.id, email }
        await requestEmailChange(ctx, tx, outbox, who, pending, redirectTo, pkce)
      }
    })
    return c.json({})
  })
}
