import type { Context, Hono } from 'hono'
import type { LocalbaseConfig } from '../config/config.ts'
import type { ServiceContext } from '../context.ts'
import type { Database } from '../db/database.ts'
import { isLoopbackHost, isLoopbackName } from '../gateway/loopback.ts'
import type { Mailer } from './mailer.ts'

// The local dev mailbox, standing in for a mail server: GET /mailbox is a readable page,
// newest first, and GET /mailbox/messages?email= the same as JSON for tests and tools.
// Its links sign people in, so only this machine may read it: it exists only while no SMTP
// server is configured and localbase listens on loopback, it answers only to a loopback
// Host (a DNS-rebinding page reaches 127.0.0.1 under its own name), and it sends no CORS
// headers (gateway/cors.ts), so a page on another origin cannot read it.

/** Whether mail goes to the dev mailbox. */
export const mailboxOpen = (config: LocalbaseConfig): boolean =>
  !config.auth.smtp && isLoopbackName(config.host)

export const mailboxMailer = (db: Database): Mailer => ({
  async send(mail) {
    await db.asService((tx) =>
      tx.query(
        `insert into _localbase.mailbox ("to", subject, text, html, link) values ($1, $2, $3, $4, $5)`,
        [mail.to, mail.subject, mail.text, mail.html, mail.link],
      ),
    )
  },
})

type Message = {
  id: number
  to: string
  subject: string
  text: string
  html: string
  link: string
  created_at: string
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`)

function page(messages: Message[]): string {
  const items = messages
    .map(
      (m) => `<article>
  <h2>${escapeHtml(m.subject)}</h2>
  <p class="meta">To <b>${escapeHtml(m.to)}</b> · ${escapeHtml(m.created_at)}</p>
  <p><a href="${escapeHtml(m.link)}">${escapeHtml(m.link)}</a></p>
  <pre>${escapeHtml(m.text)}</pre>
</article>`,
    )
    .join('\n')
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>localbase mailbox</title>
<style>body{font:15px/1.5 system-ui,sans-serif;max-width:50rem;margin:2rem auto;padding:0 1rem}
article{border:1px solid #ccc;border-radius:6px;padding:0 1rem;margin:1rem 0}
.meta{color:#555}pre{white-space:pre-wrap;word-break:break-all}a{word-break:break-all}</style>
</head><body><h1>Mailbox</h1>
${items || '<p>No messages yet.</p>'}
</body></html>`
}

// Links are credentials: keep them out of caches, and no other page may frame the list.
const privateHeaders = {
  'cache-control': 'no-store',
  'content-security-policy': "frame-ancestors 'none'",
}

export function mailboxRoutes(app: Hono, ctx: ServiceContext): void {
  if (!mailboxOpen(ctx.config)) return
  const list = (email: string | undefined) =>
    ctx.db.asService(async (tx) => {
      const { rows } = await tx.query<Message>(
        `select id::int, "to", subject, text, html, link,
           to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as created_at
         from _localbase.mailbox where $1::text is null or lower("to") = lower($1)
         order by id desc limit 200`,
        [email ?? null],
      )
      return rows
    })
  const serve = (render: (c: Context, messages: Message[]) => Response) => async (c: Context) => {
    if (!isLoopbackHost(c.req.header('host'))) return c.notFound()
    return render(c, await list(c.req.query('email')))
  }

  app.get(
    '/mailbox',
    serve((c, messages) => c.html(page(messages), 200, privateHeaders)),
  )
  app.get(
    '/mailbox/messages',
    serve((c, messages) => c.json(messages, 200, privateHeaders)),
  )
}
