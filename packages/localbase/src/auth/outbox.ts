import type { Transaction } from '../db/database.ts'
import { type Mail, type MailingContext, sendMails } from './mailer.ts'

// Auth mail goes after the transaction that stores its tokens has committed. PGlite is one
// connection: a mail server that stalls (10 s to connect, 30 s per reply) would otherwise
// hold the database, and every member's request with it, for as long.
//
// GoTrue sends inside its transaction, so a mail that cannot be sent rolls everything back:
// no user is created, no token replaced, no email change recorded, and the request answers
// 500 unexpected_failure. Here the transaction has committed by then, so a failed send is
// undone in a second short transaction: a user created for the mail is deleted, and a user
// that existed gets back the columns, one-time tokens and PKCE flows it had before. The undo
// only takes back what is still as this request left it; a change someone made in between
// (another request's fresh token, a confirmation) is kept.

type Snapshot = {
  user: Record<string, unknown> | null
  tokens: Record<string, unknown>[]
  flows: string[]
}

/** What a transaction of withMail collects: the mails to send and the users it changes. */
export class Outbox {
  readonly mails: Mail[] = []
  /** Each user's state before this request changed it (null: the request created them). */
  readonly before = new Map<string, Snapshot | null>()
  readonly after = new Map<string, Snapshot>()

  /** Mails to send once the transaction has committed. */
  post(...mails: Mail[]): void {
    this.mails.push(...mails)
  }

  /** Records the user as they are, before this transaction changes them (once per user). */
  async track(tx: Transaction, userId: string): Promise<void> {
    if (!this.before.has(userId)) this.before.set(userId, await snapshot(tx, userId))
  }

  /** The user was inserted by this transaction: a failed mail deletes them. */
  created(userId: string): void {
    this.before.set(userId, null)
  }
}

async function snapshot(tx: Transaction, userId: string): Promise<Snapshot> {
  const { rows } = await tx.query<Snapshot>(
    `select (select to_jsonb(u) from auth.users u where u.id = $1) as user,
       (select coalesce(jsonb_agg(to_jsonb(t)), '[]') from auth.one_time_tokens t
        where t.user_id = $1) as tokens,
       (select coalesce(array_agg(f.id::text), '{}') from auth.flow_state f
        where f.user_id = $1) as flows`,
    [userId],
  )
  return rows[0]!
}

/**
 * Runs `work` in a service transaction and sends the mails it posted once that has committed.
 * A failed send is undone (see above) and answers as GoTrue's: 500 unexpected_failure.
 */
export async function withMail<T>(
  ctx: MailingContext,
  work: (tx: Transaction, outbox: Outbox) => Promise<T>,
): Promise<T> {
  const outbox = new Outbox()
  const result = await ctx.db.asService(async (tx) => {
    const value = await work(tx, outbox)
    if (outbox.mails.length) {
      for (const id of outbox.before.keys()) outbox.after.set(id, await snapshot(tx, id))
    }
    return value
  })
  try {
    await sendMails(ctx, outbox.mails)
  } catch (error) {
    await ctx.db
      .asService((tx) => undo(tx, outbox))
      .catch((undoError: unknown) => {
        console.error('[localbase auth] undoing a request whose mail failed:', undoError)
      })
    throw error
  }
  return result
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b)
const tokenIds = (tokens: Record<string, unknown>[]) => new Set(tokens.map((t) => String(t.id)))

async function undo(tx: Transaction, outbox: Outbox): Promise<void> {
  for (const [userId, before] of outbox.before) {
    const after = outbox.after.get(userId)!
    const now = await snapshot(tx, userId)
    if (!now.user) continue
    // The tokens this request wrote; once one is gone, someone has acted since: leave it be.
    const written = after.tokens.filter((t) => !tokenIds(before?.tokens ?? []).has(String(t.id)))
    const current = tokenIds(now.tokens)
    if (!written.every((t) => current.has(String(t.id)))) continue
    if (!before) {
      await tx.query('delete from auth.users where id = $1', [userId])
      continue
    }
    await restoreColumns(tx, userId, before.user!, after.user!, now.user)
    const dropped = before.tokens.filter((t) => !tokenIds(after.tokens).has(String(t.id)))
    await tx.query(
      `with d as (delete from auth.one_time_tokens where id = any($1::uuid[]))
       insert into auth.one_time_tokens
       select * from jsonb_populate_recordset(null::auth.one_time_tokens, $2::jsonb)`,
      [written.map((t) => t.id), JSON.stringify(dropped)],
    )
    const flows = after.flows.filter((id) => !before.flows.includes(id))
    await tx.query('delete from auth.flow_state where id = any($1::uuid[])', [flows])
  }
}

/** Puts back the columns this request changed that nobody has changed since. */
async function restoreColumns(
  tx: Transaction,
  userId: string,
  before: Record<string, unknown>,
  after: Record<string, unknown>,
  now: Record<string, unknown>,
): Promise<void> {
  const columns = Object.keys(before).filter(
    (key) => !same(before[key], after[key]) && same(after[key], now[key]),
  )
  if (!columns.length) return
  // The names come from the row itself; quoted all the same.
  const list = columns.map((key) => `"${key.replaceAll('"', '""')}"`).join(', ')
  await tx.query(
    `update auth.users set (${list}) = (
       select ${list} from jsonb_populate_record(null::auth.users, $2::jsonb)
     ) where id = $1`,
    [userId, JSON.stringify(before)],
  )
}
