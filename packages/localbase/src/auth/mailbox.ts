import type { Hono } from 'hono'
import type { ServiceContext } from '../context.ts'

// The local dev mailbox (no mail server here): GET /mailbox is a readable page, newest
// first, and GET /mailbox/messages?email= the same as JSON for tests and tools.

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

export function mailboxRoutes(app: Hono, ctx: ServiceContext): void {
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

  app.get('/mailbox', async (c) => c.html(page(await list(c.req.query('email')))))
  app.get('/mailbox/messages', async (c) => c.json(await list(c.req.query('email'))))
}
