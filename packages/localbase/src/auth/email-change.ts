import type { ServiceContext } from '../context.ts'
import type { Transaction } from '../db/database.ts'
import { type Link, composeMail, createToken, tokenTypeOf } from './mail.ts'
import type { MailingContext } from './mailer.ts'
import type { Outbox } from './outbox.ts'
import { type Challenge, recordFlow } from './pkce.ts'
import { emailExists, emailProviderSql, upsertEmailIdentitySql } from './users.ts'

// Changing a user's email as GoTrue does (internal/api/user.go UserUpdate, mail.go
// sendEmailChange, verify.go emailChangeVerify): the request only records `email_change`
// (new_email) and mails a link to the new address, and to the current one too when
// double_confirm_changes is on. The address moves once the links are used; until then the
// account, and every token issued for it, keeps the old one.

const tokenTypes = { new: tokenTypeOf.email_change, current: 'email_change_token_current' }
export type Side = keyof typeof tokenTypes

/** Token types a `type: email_change` verification accepts. */
export const emailChangeTokenTypes = Object.values(tokenTypes)

/** GoTrue's answer to the first of two confirmations. */
export const singleConfirmation =
  'Confirmation link accepted. Please proceed to confirm link sent to the other email'

// A new request starts over: both old links stop working.
const beginSql = `with d as (
    delete from auth.one_time_tokens where user_id = $1 and token_type = any($3::text[])
  )
  update auth.users set email_change = $2, email_change_sent_at = now(),
    email_change_confirm_status = 0, updated_at = now()
  where id = $1`

async function begin(tx: Transaction, userId: string, newEmail: string, sides: Side[]) {
  await tx.query(beginSql, [userId, newEmail, sides.map((side) => tokenTypes[side])])
}

type User = { id: string; email: string }

function linkFor(
  ctx: ServiceContext,
  tx: Transaction,
  user: User,
  newEmail: string,
  side: Side,
  redirectTo: string,
  pkce: boolean,
): Promise<Link> {
  return createToken(ctx, tx, {
    userId: user.id,
    address: side === 'new' ? newEmail : user.email,
    tokenType: tokenTypes[side],
    kind: 'email_change',
    redirectTo,
    pkce,
  })
}

/** PUT /user (and /resend) with a new address: records it and posts the links' mails. */
export async function requestEmailChange(
  ctx: MailingContext,
  tx: Transaction,
  outbox: Outbox,
  user: User,
  newEmail: string,
  redirectTo: string,
  pkce: Challenge | null,
): Promise<void> {
  // An anonymous user has no current address to ask.
  const sides: Side[] =
    ctx.config.auth.doubleConfirmChanges && user.email ? ['new', 'current'] : ['new']
  await outbox.track(tx, user.id)
  await begin(tx, user.id, newEmail, ['new', 'current'])
  if (pkce) await recordFlow(tx, user.id, 'email_change', pkce)
  const intro = user.email
    ? `Follow this link to confirm the update of your email from ${user.email} to ${newEmail}:`
    : `Follow this link to confirm ${newEmail} as your email:`
  const mails = []
  for (const side of sides) {
    const link = await linkFor(ctx, tx, user, newEmail, side, redirectTo, !!pkce)
    mails.push(composeMail('email_change', side === 'new' ? newEmail : user.email, link, intro))
  }
  outbox.post(...mails)
}

/** generate_link email_change_new / _current: one side's link, mailed by nobody. */
export async function emailChangeLink(
  ctx: ServiceContext,
  tx: Transaction,
  user: User,
  newEmail: string,
  side: Side,
  redirectTo: string,
): Promise<Link> {
  await begin(tx, user.id, newEmail, [side])
  return linkFor(ctx, tx, user, newEmail, side, redirectTo, false)
}

type Pending = {
  email: string | null
  email_change: string | null
  email_change_confirm_status: number
}

// GoTrue's ConfirmEmailChange: the address moves, the email identity follows, an anonymous
// user becomes a permanent one, and every outstanding one-time token is dropped.
const completeSql = `with d as (
    delete from auth.one_time_tokens where user_id = $1
  )
  update auth.users set email = email_change, email_change = '', email_change_confirm_status = 0,
    email_change_token_new = '', email_change_token_current = '',
    email_confirmed_at = coalesce(email_confirmed_at, now()),
    raw_app_meta_data = ${emailProviderSql('true')},
    is_anonymous = false, updated_at = now()
  where id = $1
  returning email`

/** What a used link confirmed: a user, or the first of two email change links. */
export type Confirmation = { userId: string } | 'pending'

/**
 * Applies a used email change token (already deleted from one_time_tokens); null when the
 * user has no change pending.
 */
export async function confirmEmailChange(
  ctx: ServiceContext,
  tx: Transaction,
  token: { user_id: string; token_type: string },
): Promise<Confirmation | null> {
  const { rows } = await tx.query<Pending>(
    `select email, email_change, email_change_confirm_status from auth.users where id = $1 for update`,
    [token.user_id],
  )
  const user = rows[0]
  if (!user?.email_change) return null
  const { enableConfirmations, doubleConfirmChanges } = ctx.config.auth
  // With confirmations on, GoTrue wants both links when it mailed both. Under autoconfirm it
  // takes whichever comes first; localbase still wants the new address's own link, since
  // the old address's link proves nothing about who holds the new one.
  const bothNeeded = enableConfirmations && doubleConfirmChanges && !!user.email
  const done =
    user.email_change_confirm_status > 0 || (!bothNeeded && token.token_type === tokenTypes.new)
  if (!done) {
    await tx.query('update auth.users set email_change_confirm_status = 1 where id = $1', [
      token.user_id,
    ])
    return 'pending'
  }
  try {
    const completed = await tx.query<{ email: string }>(completeSql, [token.user_id])
    await tx.query(upsertEmailIdentitySql, [token.user_id, completed.rows[0]!.email])
  } catch (error) {
    // Another account took the address while this change waited.
    if ((error as { code?: string }).code === '23505') throw emailExists()
    throw error
  }
  return { userId: token.user_id }
}
