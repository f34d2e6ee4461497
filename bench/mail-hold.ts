import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createClient } from '@supabase/supabase-js'
import { DEFAULT_ANON_KEY } from '../packages/localbase/src/config/keys.ts'
import { copyFixture, startTestStack } from '../packages/localbase/test/helpers.ts'
import { sendMailTo, startInbox } from '../packages/localbase/test/smtp-inbox.ts'
import { readTrace, summarizeTrace } from './load-trace.ts'

// How long a sign-up holds PGlite's single connection when the mail server is slow: the
// SMTP server holds each mail for STALL_MS (default 2,000) before taking it, and every
// database job is traced (LOCALBASE_DB_TRACE). Prints the longest hold and its statement.
//   npm run bench:mail-hold

const stallMs = Number(process.env.STALL_MS) || 2000
const dir = mkdtempSync(join(tmpdir(), 'mail-hold-'))
const tracePath = join(dir, 'trace.jsonl')
process.env.LOCALBASE_DB_TRACE = tracePath

const credentials = { user: 'mailer', pass: 'smtp-secret' }
const inbox = await startInbox(credentials)
const project = copyFixture('auth-confirm')
sendMailTo(project, inbox, credentials)
const stack = await startTestStack(project, { env: { SMTP_HOST: '' } })
try {
  const client = createClient(stack.url, DEFAULT_ANON_KEY, { auth: { persistSession: false } })
  for (let run = 1; run <= 3; run++) {
    await new Promise((resolve) => setTimeout(resolve, 300))
    rmSync(tracePath, { force: true })
    const stall = inbox.stall()
    void stall.reached.then(() => setTimeout(() => stall.release(), stallMs))
    const started = performance.now()
    const { error } = await client.auth.signUp({
      email: `hold${run}-${Date.now()}@example.com`,
      password: 'long-enough-password',
    })
    if (error) throw error
    const wallMs = Math.round(performance.now() - started)
    await new Promise((resolve) => setTimeout(resolve, 600))
    const summary = summarizeTrace(readTrace(tracePath))
    const top = summary.top[0]
    console.log(
      JSON.stringify({ run, stallMs, wallMs, maxHoldMs: summary.maxHoldMs, slowest: top?.sql }),
    )
  }
} finally {
  await stack.stop()
  await inbox.close()
  rmSync(project, { recursive: true, force: true })
  rmSync(dir, { recursive: true, force: true })
}
