import type { RealtimePostgresChangesPayload, SupabaseClient } from '@supabase/supabase-js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestStack, type TestStack } from './helpers.ts'
import { Inbox, makeUser, realtimeClient, subscribed } from './realtime-helpers.ts'
import { testDatabaseUrl } from './scratch-database.ts'

type Change = RealtimePostgresChangesPayload<Record<string, unknown>>

// Only with LOCALBASE_TEST_DATABASE_URL: the LISTEN connection outlives its backend. The
// server ends it as a restart would (57P01, "terminating connection due to administrator
// command"); realtime changes and schema reloads must keep arriving on a new one.
describe.skipIf(!testDatabaseUrl)('the Postgres LISTEN connection', () => {
  let stack: TestStack
  let client: SupabaseClient
  beforeAll(async () => {
    stack = await startTestStack('realtime', { databaseServer: testDatabaseUrl })
  })
  afterAll(async () => {
    await client?.removeAllChannels()
    await stack?.stop()
  })

  /** This database's backends whose last statement was a LISTEN: the listener's. */
  const listenerPids = async () => {
    const { rows } = await stack.db.pg.query<{ pid: number }>(
      `select pid from pg_stat_activity
       where datname = current_database() and pid <> pg_backend_pid()
         and query ilike 'listen %'`,
    )
    return rows.map((r) => r.pid)
  }

  it('is made again when its backend ends: changes and NOTIFY pgrst still arrive', async () => {
    const user = await makeUser(stack)
    client = realtimeClient(stack)
    await client.realtime.setAuth(user.token)
    const inbox = new Inbox<Change>()
    await subscribed(
      client
        .channel('todos-after-loss')
        .on('postgres_changes', { event: 'INSERT', schema: 'public', table: 'todos' }, inbox.push),
    )

    const [lost, ...others] = await listenerPids()
    expect(others).toEqual([])
    await stack.db.pg.query('select pg_terminate_backend($1)', [lost])
    // A new connection listens again (its LISTENs show in pg_stat_activity).
    await expect
      .poll(async () => (await listenerPids()).filter((pid) => pid !== lost), { timeout: 10_000 })
      .toHaveLength(1)

    await stack.db.pg.query(`insert into public.todos (owner_id, title) values ($1, 'after')`, [
      user.id,
    ])
    const [insert] = await inbox.waitFor(1)
    expect(insert).toMatchObject({ eventType: 'INSERT', new: { title: 'after' } })

    await stack.db.pg.exec(`create table public.after_reconnect (id int primary key);
      insert into public.after_reconnect values (7); grant select on public.after_reconnect to anon;`)
    await stack.db.pg.exec(`notify pgrst, 'reload schema'`)
    await expect
      .poll(async () => (await stack.client().from('after_reconnect').select()).data, {
        timeout: 5000,
      })
      .toEqual([{ id: 7 }])
  })
})
