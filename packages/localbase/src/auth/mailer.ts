import type { ServiceContext } from '../context.ts'
import { AuthError } from './errors.ts'

export type MailKind =
  'signup' | 'invite' | 'magiclink' | 'recovery' | 'email_change' | 'reauthentication'

export type Mail = {
  kind: MailKind
  to: string
  subject: string
  text: string
  html: string
  /** The link the mail carries, kept apart for the dev mailbox. */
  link: string
}

/** Where auth mail goes: an SMTP server, the dev mailbox, or nowhere. */
export type Mailer = {
  /** Runs after the transaction that stores the mail's token has committed (outbox.ts). */
  send(mail: Mail): Promise<void>
}

/** What the routes that send mail are given. */
export type MailingContext = ServiceContext & { mailer: Mailer }

/** GoTrue's noop client: with no SMTP host, mail is dropped. */
export const dropMail: Mailer = { send: async () => {} }

// GoTrue's answers when a mail cannot be sent (internal/api/mail.go): 500 unexpected_failure.
const failures: Record<MailKind, string> = {
  signup: 'Error sending confirmation email',
  invite: 'Error sending invite email',
  magiclink: 'Error sending magic link email',
  recovery: 'Error sending recovery email',
  email_change: 'Error sending email change email',
  reauthentication: 'Error sending reauthentication email',
}

/** Sends the mails; any failure throws GoTrue's error, once every send has settled. */
export async function sendMails(ctx: MailingContext, mails: Mail[]): Promise<void> {
  const results = await Promise.allSettled(mails.map((mail) => ctx.mailer.send(mail)))
  const failed = results.findIndex((result) => result.status === 'rejected')
  if (failed < 0) return
  const { kind, to } = mails[failed]!
  console.error(
    `[localbase auth] sending the ${kind} mail to ${to} failed:`,
    (results[failed] as PromiseRejectedResult).reason,
  )
  throw new AuthError(500, 'unexpected_failure', failures[kind])
}
