import { randomInt } from 'node:crypto'
import type { Hono } from 'hono'
import type { Transaction } from '../db/database.ts'
import { AuthError, badRequest, unprocessable } from './errors.ts'
import { requireUser } from './guard.ts'
import { authLimits } from './limits.ts'
import { tokenHash } from './mail.ts'
import type { MailingContext } from './mailer.ts'
import { withMail } from './outbox.ts'

// GET /reauthenticate (internal/api/reauthenticate.go): a nonce mailed to the signed-in
// person, which PUT /user then takes to change the password when secure_password_change is on.

const subject = 'Confirm reauthentication'

export function reauthenticateRoutes(app: Hono, ctx: MailingContext): void {
  app.get('/reauthenticate', async (c) => {
    const { user } = await requireUser(ctx, c)
    const email = String(user.user.email ?? '')
    if (!email) {
      throw badRequest(
        'validation_failed',
        'Reauthentication requires the user to have an email or a phone number',
      )
    }
    if (!user.confirmed)
      throw unprocessable('email_not_confirmed', 'Please verify your email first.')
    authLimits(ctx).email.take()
    const nonce = String(randomInt(0, 1_000_000)).padStart(6, '0')
    const hash = tokenHash(email, nonce)
    await withMail(ctx, async (tx, outbox) => {
      await outbox.track(tx, user.id)
      await tx.query(
        `with u as (
           update auth.users set reauthentication_token = $2, reauthentication_sent_at = now()
           where id = $1
         ), d as (
           delete from auth.one_time_tokens where user_id = $1 and token_type = 'reauthentication_token'
         )
         insert into auth.one_time_tokens (user_id, token_type, token_hash, relates_to)
         values ($1, 'reauthentication_token', $2, $3)`,
        [user.id, hash, email],
      )
      const text = `Enter the code: ${nonce}\n`
      const html = `<h2>${subject}</h2><p>Enter the code: ${nonce}</p>`
      outbox.post({ kind: 'reauthentication', to: email, subject, text, html, link: '' })
    })
    return c.json({})
  })
}

const nonceInvalid = () =>
  unprocessable('reauthentication_not_valid', 'Nonce has expired or is invalid')

/**
 * What PUT /user checks before a password change when secure_password_change is on
 * (user.go): a session started within the last 24 hours needs nothing more; an older one (or
 * none) needs the mailed nonce, which is then spent.
 */
export async function requireReauthentication(
  ctx: MailingContext,
  tx: Transaction,
  who: { id: string; email: string; sessionId: string | null },
  nonce: string | undefined,
): Promise<void> {
  if (!ctx.config.auth.securePasswordChange) return
  if (who.sessionId) {
    const { rows } = await tx.query<{ recent: boolean }>(
      `select created_at > now() - interval '24 hours' as recent from auth.sessions where id = $1`,
      [who.sessionId],
    )
    if (rows[0]?.recent) return
  }
  if (!nonce) {
    throw new AuthError(400, 'reauthentication_needed', 'Password update requires reauthentication')
  }
  const { rows } = await tx.query<{ ok: boolean }>(
    `select reauthentication_token = $2
       and reauthentication_sent_at + make_interval(secs => $3) > now() as ok
     from auth.users where id = $1`,
    [who.id, tokenHash(who.email, nonce), ctx.config.auth.otpExpiry],
  )
  if (!rows[0]?.ok) throw nonceInvalid()
  await tx.query(
    `with d as (
       delete from auth.one_time_tokens where user_id = $1 and token_type = 'reauthentication_token'
     )
     update auth.users set reauthentication_token = '', reauthentication_sent_at = null
     where id = $1`,
    [who.id],
  )
}
