import type { Hono } from 'hono'
import { requestEmailChange } from './email-change.ts'
import { unprocessable, validation } from './errors.ts'
import { requireUser } from './guard.ts'
import { normaliseEmail, obj, readBody, str } from './http.ts'
import type { MailingContext } from './mailer.ts'
import { withMail } from './outbox.ts'
import { checkStrength, hashPassword, verifyPassword } from './passwords.ts'
import { challengeOf } from './pkce.ts'
import { requireReauthentication } from './reauthenticate.ts'
import { redirectTarget } from './redirect.ts'
import type { UserJson } from './sessions.ts'
import {
  emailExists,
  emailProviderSql,
  emailTaken,
  findById,
  mergeJsonSql,
  upsertEmailIdentitySql,
} from './users.ts'

// GET/PUT /user and POST /logout (internal/api/user.go, logout.go).

const updateSql = `update auth.users set
    encrypted_password = coalesce($2, encrypted_password),
    raw_user_meta_data = ${mergeJsonSql('raw_user_meta_data', '$3')},
    email = coalesce($4::text, email),
    email_confirmed_at = case when $4::text is not null then coalesce(email_confirmed_at, now())
      else email_confirmed_at end,
    raw_app_meta_data = ${emailProviderSql('$4::text is not null')},
    is_anonymous = is_anonymous and $4::text is null,
    updated_at = now()
  where id = $1
  returning _localbase.auth_user(users) as user`

export function userRoutes(app: Hono, ctx: MailingContext): void {
  const auth = ctx.config.auth
  app.get('/user', async (c) => c.json((await requireUser(ctx, c)).user.user))

  app.put('/user', async (c) => {
    const { user, sessionId } = await requireUser(ctx, c)
    const body = await readBody(c)
    const password = str(body, 'password')
    const nonce = str(body, 'nonce')
    const data = obj(body, 'data')
    const requested = str(body, 'email')
    const email = requested === undefined ? null : normaliseEmail(requested)
    let passwordHash: string | null = null
    if (password !== undefined) {
      if (user.user.is_anonymous && !email) {
        throw unprocessable(
          'validation_failed',
          'Updating password of an anonymous user without an email or phone is not allowed',
        )
      }
      checkStrength(password, auth.minimumPasswordLength)
      if (await verifyPassword(password, user.encrypted_password)) {
        throw unprocessable(
          'same_password',
          'New password should be different from the old password.',
        )
      }
      passwordHash = await hashPassword(password)
    }
    const newEmail = email !== null && email !== user.user.email ? email : null
    // Only an anonymous user of an autoconfirm project takes a new address at once (it is
    // their sign-up); everyone else confirms it by mail, however confirmations are set.
    const direct = newEmail !== null && user.user.is_anonymous && !auth.enableConfirmations
    const redirectTo = redirectTarget(auth, c.req.query('redirect_to'))
    const pkce = challengeOf(body)
    const updated = await withMail(ctx, async (tx, outbox) => {
      // The whole update is undone if the email change's mail cannot be sent.
      if (newEmail && !direct) await outbox.track(tx, user.id)
      if (passwordHash) {
        const who = { id: user.id, email: String(user.user.email ?? ''), sessionId }
        await requireReauthentication(ctx, tx, who, nonce)
      }
      if (newEmail && (await emailTaken(tx, newEmail, user.id))) throw emailExists()
      if (direct) await tx.query(upsertEmailIdentitySql, [user.id, newEmail])
      const { rows } = await tx.query<{ user: UserJson }>(updateSql, [
        user.id,
        passwordHash,
        data ? JSON.stringify(data) : null,
        direct ? newEmail : null,
      ])
      if (!newEmail || direct) return rows[0]!.user
      const current = { id: user.id, email: String(user.user.email ?? '') }
      await requestEmailChange(ctx, tx, outbox, current, newEmail, redirectTo, pkce)
      return (await findById(tx, user.id))!.user
    })
    return c.json(updated)
  })

  app.post('/logout', async (c) => {
    const scope = c.req.query('scope') ?? 'global'
    if (!['global', 'local', 'others'].includes(scope)) {
      throw validation(`Unsupported logout scope "${scope}"`)
    }
    const { user, sessionId } = await requireUser(ctx, c)
    const where = {
      global: 'user_id = $1',
      local: 'user_id = $1 and id = $2',
      others: 'user_id = $1 and id is distinct from $2',
    }[scope]
    await ctx.db.asService((tx) =>
      tx.query(
        `delete from auth.sessions where ${where}`,
        scope === 'global' ? [user.id] : [user.id, sessionId],
      ),
    )
    return c.body(null, 204)
  })
}
