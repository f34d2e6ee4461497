import type { Context, Hono } from 'hono'
import type { ServiceContext } from '../context.ts'
import type { Transaction } from '../db/database.ts'
import { emailChangeLink } from './email-change.ts'
import { AuthError, unprocessable, validation } from './errors.ts'
import { requireAdmin, isUuid } from './guard.ts'
import { normaliseEmail, obj, readBody, str } from './http.ts'
import { type AdminAttributes, adminAttributes } from './admin-input.ts'
import { createLink, mailLink } from './mail.ts'
import type { MailingContext } from './mailer.ts'
import { withMail } from './outbox.ts'
import { checkStrength, hashPassword } from './passwords.ts'
import { redirectTarget } from './redirect.ts'
import type { UserJson } from './sessions.ts'
import {
  emailExists,
  emailTaken,
  findByEmail,
  findById,
  insertUser,
  mergeJsonSql,
  upsertEmailIdentitySql,
} from './users.ts'

// The admin API (internal/api/admin.go, mail.go GenerateLink, invite.go); service key only.

const userNotFound = () => new AuthError(404, 'user_not_found', 'User not found')

function userId(c: Context): string {
  const id = c.req.param('id')
  if (!isUuid(id)) throw new AuthError(404, 'validation_failed', 'user_id must be an UUID')
  return id
}

function positive(value: string | undefined, fallback: number): number {
  if (value === undefined || value === '') return fallback
  const n = Number(value)
  if (!Number.isInteger(n) || n < 1) {
    throw validation(`Bad Pagination Parameters: invalid value "${value}"`)
  }
  return n
}

const updateSql = `update auth.users set
    email = coalesce($2, email),
    encrypted_password = coalesce($3, encrypted_password),
    email_confirmed_at = case when $4::boolean then coalesce(email_confirmed_at, now())
      else email_confirmed_at end,
    raw_user_meta_data = ${mergeJsonSql('raw_user_meta_data', '$5')},
    raw_app_meta_data = ${mergeJsonSql('raw_app_meta_data', '$6')},
    role = coalesce($7, role),
    banned_until = case when $8::boolean then now() + make_interval(secs => $9::float8)
      else banned_until end,
    updated_at = now()
  where id = $1
  returning _localbase.auth_user(users) as user`

async function applyAttributes(tx: Transaction, id: string, a: AdminAttributes): Promise<UserJson> {
  if (a.email) await tx.query(upsertEmailIdentitySql, [id, a.email])
  try {
    const { rows } = await tx.query<{ user: UserJson }>(updateSql, [
      id,
      a.email,
      a.passwordHash,
      a.emailConfirm,
      a.userMetadata && JSON.stringify(a.userMetadata),
      a.appMetadata && JSON.stringify(a.appMetadata),
      a.role,
      a.ban !== undefined,
      a.ban ?? null,
    ])
    if (!rows[0]) throw userNotFound()
    return rows[0].user
  } catch (error) {
    if ((error as { code?: string }).code === '23505') throw emailExists()
    throw error
  }
}

const linkTypes = [
  'signup',
  'invite',
  'magiclink',
  'recovery',
  'email_change_current',
  'email_change_new',
]
const emailNotFound = () => new AuthError(404, 'user_not_found', 'User with this email not found')

/** generate_link for an email change: one side's link, and nothing mailed (mail.go). */
async function generateEmailChangeLink(
  ctx: ServiceContext,
  type: 'email_change_current' | 'email_change_new',
  email: string,
  requestedNewEmail: string | undefined,
  redirectTo: string,
) {
  return ctx.db.asService(async (tx) => {
    const user = await findByEmail(tx, email)
    if (!user) throw emailNotFound()
    if (type === 'email_change_current' && !ctx.config.auth.doubleConfirmChanges) {
      throw validation('Enable secure email change to generate link for current email')
    }
    const newEmail = normaliseEmail(requestedNewEmail)
    if (await emailTaken(tx, newEmail, user.id)) throw emailExists()
    const side = type === 'email_change_current' ? 'current' : 'new'
    const link = await emailChangeLink(ctx, tx, { id: user.id, email }, newEmail, side, redirectTo)
    return {
      ...(await findById(tx, user.id))!.user,
      action_link: link.link,
      email_otp: link.otp,
      hashed_token: link.hash,
      redirect_to: link.redirectTo,
      verification_type: type,
    }
  })
}

export function adminRoutes(app: Hono, ctx: MailingContext): void {
  const auth = ctx.config.auth
  app.use('/admin/*', async (c, next) => {
    await requireAdmin(ctx, c)
    await next()
  })
  app.use('/invite', async (c, next) => {
    await requireAdmin(ctx, c)
    await next()
  })

  app.get('/admin/users', async (c) => {
    const page = positive(c.req.query('page'), 1)
    const perPage = positive(c.req.query('per_page'), 50)
    const { rows } = await ctx.db.asService((tx) =>
      tx.query<{ users: UserJson[]; total: number }>(
        `select coalesce((select jsonb_agg(_localbase.auth_user(u) order by u.created_at desc, u.id)
          from (select * from auth.users order by created_at desc, id limit $1 offset $2) u), '[]')
          as users, (select count(*)::int from auth.users) as total`,
        [perPage, (page - 1) * perPage],
      ),
    )
    const { users, total } = rows[0]!
    const last = Math.max(1, Math.ceil(total / perPage))
    const link = (p: number, rel: string) =>
      `</admin/users?page=${p}&per_page=${perPage}>; rel="${rel}"`
    const links = [...(page < last ? [link(page + 1, 'next')] : []), link(last, 'last')]
    return c.json(
      { users, aud: 'authenticated' },
      { headers: { 'x-total-count': String(total), link: links.join(', ') } },
    )
  })

  app.post('/admin/users', async (c) => {
    const body = await readBody(c)
    if (str(body, 'phone') && !str(body, 'email')) {
      throw unprocessable('phone_provider_disabled', 'Phone signups are disabled')
    }
    const a = await adminAttributes(body, auth.minimumPasswordLength)
    if (!a.email) throw validation('Cannot create a user without either an email or phone')
    const id = str(body, 'id')
    if (id !== undefined && !isUuid(id)) throw validation('ID must conform to the uuid v4 format')
    const user = await ctx.db.asService(async (tx) => {
      const created = await insertUser(tx, {
        id,
        email: a.email,
        passwordHash: a.passwordHash,
        confirmed: a.emailConfirm,
        userMetadata: a.userMetadata ?? {},
        appMetadata: a.appMetadata ?? {},
        role: a.role ?? undefined,
      })
      // Only the ban is left to apply; everything else went into the insert.
      return applyAttributes(tx, created, {
        ...a,
        email: null,
        passwordHash: null,
        emailConfirm: false,
        userMetadata: null,
        appMetadata: null,
        role: null,
      })
    })
    return c.json(user)
  })

  app.get('/admin/users/:id', async (c) => {
    const id = userId(c)
    const found = await ctx.db.asService((tx) => findById(tx, id))
    if (!found) throw userNotFound()
    return c.json(found.user)
  })

  app.put('/admin/users/:id', async (c) => {
    const id = userId(c)
    const a = await adminAttributes(await readBody(c), auth.minimumPasswordLength)
    return c.json(await ctx.db.asService((tx) => applyAttributes(tx, id, a)))
  })

  app.delete('/admin/users/:id', async (c) => {
    const id = userId(c)
    const { rows } = await ctx.db.asService((tx) =>
      tx.query('delete from auth.users where id = $1 returning id', [id]),
    )
    if (!rows.length) throw userNotFound()
    return c.json({})
  })

  app.post('/invite', async (c) => {
    const body = await readBody(c)
    const email = normaliseEmail(str(body, 'email'))
    const data = obj(body, 'data') ?? {}
    const redirectTo = redirectTarget(auth, c.req.query('redirect_to'))
    const user = await withMail(ctx, async (tx, outbox) => {
      const existing = await findByEmail(tx, email)
      if (existing?.confirmed) throw emailExists()
      const id =
        existing?.id ??
        (await insertUser(tx, {
          email,
          passwordHash: null,
          confirmed: false,
          invited: true,
          userMetadata: data,
        }))
      if (!existing) outbox.created(id)
      await mailLink(ctx, tx, outbox, { id, email }, 'invite', redirectTo)
      return (await findById(tx, id))!.user
    })
    return c.json(user)
  })

  app.post('/admin/generate_link', async (c) => {
    const body = await readBody(c)
    const type = str(body, 'type') ?? ''
    const email = normaliseEmail(str(body, 'email'))
    const password = str(body, 'password')
    const data = obj(body, 'data') ?? {}
    const redirectTo = redirectTarget(auth, str(body, 'redirect_to') ?? c.req.query('redirect_to'))
    if (!linkTypes.includes(type)) {
      throw validation(`Invalid email action link type requested: ${type}`)
    }
    if (type === 'email_change_current' || type === 'email_change_new') {
      return c.json(
        await generateEmailChangeLink(ctx, type, email, str(body, 'new_email'), redirectTo),
      )
    }
    if (type === 'signup') {
      if (!password) throw validation('Signup requires a valid password')
      checkStrength(password, auth.minimumPasswordLength)
    }
    const passwordHash = password ? await hashPassword(password) : null
    const result = await ctx.db.asService(async (tx) => {
      const existing = await findByEmail(tx, email)
      let kind = type as 'signup' | 'invite' | 'magiclink' | 'recovery'
      if (existing && (kind === 'signup' || (kind === 'invite' && existing.confirmed))) {
        throw emailExists()
      }
      if (!existing && kind === 'recovery') throw emailNotFound()
      // A magic link for an unknown address signs the user up, as GoTrue does.
      if (!existing && kind === 'magiclink') kind = 'signup'
      const id =
        existing?.id ??
        (await insertUser(tx, {
          email,
          passwordHash,
          confirmed: false,
          invited: kind === 'invite',
          userMetadata: data,
        }))
      const link = await createLink(ctx, tx, { id, email }, kind, redirectTo)
      return { link, kind, user: (await findById(tx, id))!.user }
    })
    return c.json({
      ...result.user,
      action_link: result.link.link,
      email_otp: result.link.otp,
      hashed_token: result.link.hash,
      redirect_to: result.link.redirectTo,
      verification_type: result.kind,
    })
  })
}
