import { appendFileSync } from 'node:fs'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { simpleParser } from 'mailparser'
import { SMTPServer } from 'smtp-server'

// A real SMTP server on loopback for tests: it takes mail for any address, asks for the
// given credentials, and keeps every message parsed.

export type Received = {
  from: { name: string; address: string }
  to: string[]
  subject: string
  text: string
  html: string
  /** The first /auth/v1/verify link in the text part. */
  link: string
}

export type Inbox = {
  port: number
  received: Received[]
  /** Every login the server saw, accepted or not. */
  logins: { username: string; password: string }[]
  /** While set, recipients are refused with this reply (as a full mailbox would be). */
  refuse: string | null
  /** Holds the next recipient command until released, as a stalled mail server would. */
  stall(): Stall
  to(address: string): Received[]
  close(): Promise<void>
}

export type Stall = {
  /** Resolves once a mail has reached the stall. */
  reached: Promise<void>
  /** Lets the mail go on, or refuses it with this reply. */
  release(refusal?: string): void
}

/**
 * Points a copied fixture project's Auth mail at the inbox, as the Supabase CLI's config.toml
 * does. `user` and `pass` are written as given (an `env(NAME)` reference works). The mail
 * limit is lifted: with SMTP, mail counts against `email_sent` (2 an hour by default).
 */
export function sendMailTo(
  project: string,
  inbox: Inbox,
  login: { user: string; pass: string },
  from = { name: 'Sourcebook', address: 'noreply@sourcebook.test' },
): void {
  appendFileSync(
    join(project, 'supabase', 'config.toml'),
    `
[auth.email.smtp]
enabled = true
host = "127.0.0.1"
port = ${inbox.port}
user = "${login.user}"
pass = "${login.pass}"
admin_email = "${from.address}"
sender_name = "${from.name}"

[auth.rate_limit]
email_sent = 1000
`,
  )
}

export async function startInbox(credentials: { user: string; pass: string }): Promise<Inbox> {
  const inbox: Inbox = {
    port: 0,
    received: [],
    logins: [],
    refuse: null,
    stall: () => {
      let reach = () => {}
      const reached = new Promise<void>((resolve) => (reach = resolve))
      let release: Stall['release'] = () => {}
      const released = new Promise<string | undefined>((resolve) => (release = resolve))
      stalls.push({ reach, released })
      return { reached, release }
    },
    to: (address) => inbox.received.filter((mail) => mail.to.includes(address)),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  }
  const stalls: { reach: () => void; released: Promise<string | undefined> }[] = []
  const server = new SMTPServer({
    // localbase speaks STARTTLS when offered; this test server has no certificate to offer.
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    disableReverseLookup: true,
    logger: false,
    onAuth(auth, _session, callback) {
      const login = { username: auth.username ?? '', password: auth.password ?? '' }
      inbox.logins.push(login)
      if (login.username === credentials.user && login.password === credentials.pass) {
        callback(null, { user: login.username })
      } else {
        callback(new Error('Invalid username or password'))
      }
    },
    onRcptTo(_address, _session, callback) {
      const refuse = (reply: string) =>
        callback(Object.assign(new Error(reply), { responseCode: 550 }))
      const stall = stalls.shift()
      if (!stall) return inbox.refuse ? refuse(inbox.refuse) : callback()
      stall.reach()
      void stall.released.then((refusal) => (refusal ? refuse(refusal) : callback()))
    },
    onData(stream, _session, callback) {
      simpleParser(stream).then(
        (mail) => {
          const from = mail.from?.value[0]
          const to = [mail.to ?? []].flat().flatMap((list) => list.value.map((a) => a.address!))
          const text = mail.text ?? ''
          inbox.received.push({
            from: { name: from?.name ?? '', address: from?.address ?? '' },
            to,
            subject: mail.subject ?? '',
            text,
            html: mail.html || '',
            link: /https?:\/\/\S+\/auth\/v1\/verify\S+/.exec(text)?.[0] ?? '',
          })
          callback()
        },
        (error: Error) => callback(error),
      )
    },
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()))
  inbox.port = (server.server.address() as AddressInfo).port
  return inbox
}
