import { createHash, randomInt } from 'node:crypto'
import type { ServiceContext } from '../context.ts'
import type { Transaction } from '../db/database.ts'
import { authLimits } from './limits.ts'
import type { Mail, MailKind, MailingContext } from './mailer.ts'
import type { Outbox } from './outbox.ts'
import { type Challenge, PKCE_PREFIX, recordFlow } from './pkce.ts'
import { type MailTemplate, render } from './templates.ts'

// Mailed links carry GoTrue's token hash (sha224 of email + OTP), and the mailed code is the
// OTP itself. Email changes make their links in email-change.ts.

/** Mails that carry a link (a reauthentication nonce is a code alone). */
export type LinkKind = Exclude<MailKind, 'reauthentication'>

/** Which one_time_tokens type each link uses, as GoTrue (magic links reuse recovery). */
export const tokenTypeOf: Record<LinkKind, string> = {
  signup: 'confirmation_token',
  invite: 'confirmation_token',
  magiclink: 'recovery_token',
  recovery: 'recovery_token',
  email_change: 'email_change_token_new',
}

// Column names come from this fixed map, never from the request.
const sentColumn: Record<Exclude<LinkKind, 'email_change'>, string> = {
  signup: 'confirmation_sent_at',
  invite: 'confirmation_sent_at',
  magiclink: 'recovery_sent_at',
  recovery: 'recovery_sent_at',
}

const subjects: Record<LinkKind, string> = {
  signup: 'Confirm Your Signup',
  invite: 'You have been invited',
  magiclink: 'Your Magic Link',
  recovery: 'Reset Your Password',
  email_change: 'Confirm Email Change',
}

const intros: Record<Exclude<LinkKind, 'email_change'>, string> = {
  signup: 'Follow this link to confirm your user:',
  invite: 'You have been invited to create a user. Follow this link to accept the invite:',
  magiclink: 'Follow this link to login:',
  recovery: 'Follow this link to reset the password for your user:',
}

export const tokenHash = (email: string, otp: string): string =>
  createHash('sha224')
    .update(email + otp)
    .digest('hex')

export type Link = { otp: string; hash: string; link: string; redirectTo: string }

export type TokenRequest = {
  userId: string
  /** The address the token is mailed to; its hash is taken with it. */
  address: string
  tokenType: string
  kind: LinkKind
  redirectTo: string
  /** Whether the link belongs to a PKCE flow (its token is then marked `pkce_`). */
  pkce: boolean
}

/** Stores a fresh one-time token, replacing the user's previous one of that type. */
export async function createToken(
  ctx: ServiceContext,
  tx: Transaction,
  request: TokenRequest,
): Promise<Link> {
  const otp = String(randomInt(0, 1_000_000)).padStart(6, '0')
  const hash = tokenHash(request.address, otp)
  await tx.query(
    `with d as (
       delete from auth.one_time_tokens where user_id = $1 and token_type = $2
     )
     insert into auth.one_time_tokens (user_id, token_type, token_hash, relates_to)
     values ($1, $2, $3, $4)`,
    [request.userId, request.tokenType, hash, request.address],
  )
  const token = request.pkce ? PKCE_PREFIX + hash : hash
  const query = new URLSearchParams({ token, type: request.kind, redirect_to: request.redirectTo })
  return { otp, hash, link: `${ctx.url}/auth/v1/verify?${query}`, redirectTo: request.redirectTo }
}

/** A fresh link of this kind for the user; with a PKCE challenge the flow is recorded too. */
export async function createLink(
  ctx: ServiceContext,
  tx: Transaction,
  user: { id: string; email: string },
  kind: Exclude<LinkKind, 'email_change'>,
  redirectTo: string,
  pkce: Challenge | null = null,
): Promise<Link> {
  await tx.query(`update auth.users set ${sentColumn[kind]} = now() where id = $1`, [user.id])
  if (pkce) await recordFlow(tx, user.id, kind, pkce)
  return createToken(ctx, tx, {
    userId: user.id,
    address: user.email,
    tokenType: tokenTypeOf[kind],
    kind,
    redirectTo,
    pkce: !!pkce,
  })
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`)

/** The mail for a link: a text part, and an HTML part with the same words. */
export function composeMail(kind: LinkKind, to: string, link: Link, intro: string): Mail {
  const subject = subjects[kind]
  const text = `${intro}\n\n${link.link}\n\nAlternatively, enter the code: ${link.otp}\n`
  const html = `<h2>${escapeHtml(subject)}</h2><p>${escapeHtml(intro)}</p><p><a href="${escapeHtml(link.link)}">${escapeHtml(subject)}</a></p><p>Alternatively, enter the code: ${link.otp}</p>`
  return { kind, to, subject, text, html, link: link.link }
}

/** The words of an HTML mail as plain text: whitespace as a browser shows it, a line per block. */
const textOf = (html: string) =>
  html
    .replace(/<(style|head)[\s\S]*?<\/\1>/gi, '')
    .replace(/\s+/g, ' ')
    .replace(/<\/?(p|h\d|div|br|li|tr|table)\b[^>]*>/gi, '\n')
    .replace(/<[^>]*>/g, '')
    .replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code)))
    .replace(/&amp;/g, '&')
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
    .join('\n\n')

/** The mail from the project's template; its `.Data` is the user's metadata, as GoTrue's. */
async function templatedMail(
  ctx: MailingContext,
  tx: Transaction,
  template: MailTemplate,
  kind: Exclude<LinkKind, 'email_change'>,
  user: { id: string; email: string },
  link: Link,
): Promise<Mail> {
  const { rows } = await tx.query<{ data: Record<string, unknown> | null }>(
    'select raw_user_meta_data as data from auth.users where id = $1',
    [user.id],
  )
  const data = {
    ConfirmationURL: link.link,
    Token: link.otp,
    TokenHash: link.hash,
    SiteURL: ctx.config.auth.siteUrl,
    RedirectTo: link.redirectTo,
    Email: user.email,
    Data: rows[0]?.data ?? {},
  }
  const fallback = composeMail(kind, user.email, link, intros[kind])
  const subject = template.subject ? render(template.subject, data, 'text') : fallback.subject
  if (!template.html) return { ...fallback, subject }
  const html = render(template.html, data, 'html')
  // GoTrue sends a template as HTML alone; the text part is for mail readers without HTML.
  return {
    kind,
    to: user.email,
    subject,
    html,
    text: `${textOf(html)}\n\n${link.link}\n`,
    link: link.link,
  }
}

/** A fresh link for the user, stored in the caller's transaction and mailed once it commits. */
export async function mailLink(
  ctx: MailingContext,
  tx: Transaction,
  outbox: Outbox,
  user: { id: string; email: string },
  kind: Exclude<LinkKind, 'email_change'>,
  redirectTo: string,
  pkce: Challenge | null = null,
): Promise<Link> {
  authLimits(ctx).email.take()
  await outbox.track(tx, user.id)
  const link = await createLink(ctx, tx, user, kind, redirectTo, pkce)
  const template = ctx.config.auth.templates[kind]
  const mail = template
    ? await templatedMail(ctx, tx, template, kind, user, link)
    : composeMail(kind, user.email, link, intros[kind])
  outbox.post(mail)
  return link
}
