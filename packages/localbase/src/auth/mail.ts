import { createHash, randomInt } from 'node:crypto'
import type { ServiceContext } from '../context.ts'
import type { Transaction } from '../db/database.ts'
import { authLimits } from './limits.ts'
import { type Challenge, PKCE_PREFIX, recordFlow } from './pkce.ts'

// Mail goes to the local dev mailbox (_localbase.mailbox); links carry GoTrue's token
// hash (sha224 of email + OTP) and the emailed code is the OTP itself.

export type LinkKind = 'signup' | 'invite' | 'magiclink' | 'recovery' | 'email_change'

/** Which one_time_tokens type each link uses, as GoTrue (magic links reuse recovery). */
export const tokenTypeOf: Record<LinkKind, string> = {
  signup: 'confirmation_token',
  invite: 'confirmation_token',
  magiclink: 'recovery_token',
  recovery: 'recovery_token',
  email_change: 'email_change_token_new',
}

// Column names come from this fixed map, never from the request.
const sentColumn: Record<LinkKind, string> = {
  signup: 'confirmation_sent_at',
  invite: 'confirmation_sent_at',
  magiclink: 'recovery_sent_at',
  recovery: 'recovery_sent_at',
  email_change: 'email_change_sent_at',
}

const subjects: Record<LinkKind, string> = {
  signup: 'Confirm Your Signup',
  invite: 'You have been invited',
  magiclink: 'Your Magic Link',
  recovery: 'Reset Your Password',
  email_change: 'Confirm Email Change',
}

const intros: Record<LinkKind, string> = {
  signup: 'Follow this link to confirm your user:',
  invite: 'You have been invited to create a user. Follow this link to accept the invite:',
  magiclink: 'Follow this link to login:',
  recovery: 'Follow this link to reset the password for your user:',
  email_change: 'Follow this link to confirm the update of your email:',
}

export const tokenHash = (email: string, otp: string): string =>
  createHash('sha224')
    .update(email + otp)
    .digest('hex')

export type Link = { otp: string; hash: string; link: string; redirectTo: string }

/**
 * Stores a fresh one-time token (replacing the user's previous one of that type). With a
 * PKCE challenge the flow is recorded and the link's token is marked `pkce_`.
 */
export async function createLink(
  ctx: ServiceContext,
  tx: Transaction,
  user: { id: string; email: string },
  kind: LinkKind,
  redirectTo: string,
  pkce: Challenge | null = null,
): Promise<Link> {
  const otp = String(randomInt(0, 1_000_000)).padStart(6, '0')
  const hash = tokenHash(user.email, otp)
  await tx.query(
    `with d as (
       delete from auth.one_time_tokens where user_id = $1 and token_type = $2
     ), i as (
       insert into auth.one_time_tokens (user_id, token_type, token_hash, relates_to)
       values ($1, $2, $3, $4)
     )
     update auth.users set ${sentColumn[kind]} = now() where id = $1`,
    [user.id, tokenTypeOf[kind], hash, user.email],
  )
  if (pkce) await recordFlow(tx, user.id, kind, pkce)
  const token = pkce ? PKCE_PREFIX + hash : hash
  const query = new URLSearchParams({ token, type: kind, redirect_to: redirectTo })
  return { otp, hash, link: `${ctx.url}/auth/v1/verify?${query}`, redirectTo }
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`)

/** Drops the mail for this link into the dev mailbox. */
export async function sendMail(
  tx: Transaction,
  to: string,
  kind: LinkKind,
  link: Link,
): Promise<void> {
  const text = `${intros[kind]}\n\n${link.link}\n\nAlternatively, enter the code: ${link.otp}\n`
  const html = `<h2>${escapeHtml(subjects[kind])}</h2><p>${escapeHtml(intros[kind])}</p><p><a href="${escapeHtml(link.link)}">${escapeHtml(subjects[kind])}</a></p><p>Alternatively, enter the code: ${link.otp}</p>`
  await tx.query(
    `insert into _localbase.mailbox ("to", subject, text, html, link) values ($1, $2, $3, $4, $5)`,
    [to, subjects[kind], text, html, link.link],
  )
}

/** A fresh link mailed to the user, in the caller's transaction. */
export async function mailLink(
  ctx: ServiceContext,
  tx: Transaction,
  user: { id: string; email: string },
  kind: LinkKind,
  redirectTo: string,
  pkce: Challenge | null = null,
): Promise<Link> {
  authLimits(ctx).email.take()
  const link = await createLink(ctx, tx, user, kind, redirectTo, pkce)
  await sendMail(tx, user.email, kind, link)
  return link
}
