import { createTransport } from 'nodemailer'
import type { SmtpConfig } from '../config/smtp.ts'
import type { Mailer } from './mailer.ts'

// Mail through the configured server, one connection per mail as GoTrue's gomail dialer:
// implicit TLS on port 465, otherwise STARTTLS whenever the server offers it.

/** The request waits for its mail (a failure undoes it), so a stalled server must fail fast. */
const timeouts = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 }

export function smtpMailer(smtp: SmtpConfig, publicUrl: string): Mailer {
  const transport = createTransport({
    host: smtp.host,
    port: smtp.port,
    secure: smtp.port === 465,
    auth: smtp.user ? { user: smtp.user, pass: smtp.pass } : undefined,
    // GoTrue greets with its external URL's host name.
    name: new URL(publicUrl).hostname,
    ...timeouts,
  })
  const from = { name: smtp.senderName, address: smtp.adminEmail }
  return {
    async send(mail) {
      await transport.sendMail({
        from,
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        html: mail.html,
      })
    },
  }
}
