import { createClient, type RealtimeChannel, type SupabaseClient } from '@supabase/supabase-js'
import { DEFAULT_ANON_KEY } from '../../../../packages/localbase/src/index.ts'
import type { Stack, User } from '../../stack.ts'

/** Everything a client's socket received: the topic, and the frame as it came. */
export type Frame = { topic: string; event: string; text: string }

export type Listener = { client: SupabaseClient; frames: Frame[]; joined: string[] }

/**
 * A realtime client as `user` (anonymous without one) that keeps every frame its socket
 * receives, through realtime-js's logger: replies, system messages, changes, broadcasts,
 * presence; not only what the channel callbacks are handed.
 */
function recordingClient(stack: Stack, user: User | undefined, frames: Frame[]): SupabaseClient {
  return createClient(stack.url, DEFAULT_ANON_KEY, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    global: user ? { headers: { Authorization: `Bearer ${user.jwt}` } } : {},
    realtime: {
      logger: (kind: string, message: string, data: unknown) => {
        if (kind !== 'receive') return
        // "[status] <topic> <event> [(ref)]", as phoenix logs it.
        const words = message.split(' ')
        const at = words.findIndex((w) => w.startsWith('realtime:') || w === 'phoenix')
        frames.push({
          topic: words[at] ?? '',
          event: words[at + 1] ?? '',
          text: `${message} ${JSON.stringify(data)}`,
        })
      },
    },
  })
}

/**
 * Joins each topic (privately or publicly) listening to everything: postgres_changes on
 * every published table, every broadcast event, presence. Resolves once every join has
 * answered, refused or not (`joined` lists the ones accepted).
 */
export async function listen(
  stack: Stack,
  user: User | undefined,
  topics: string[],
  tables: { schema: string; name: string }[],
  isPrivate: boolean,
): Promise<Listener> {
  const frames: Frame[] = []
  const client = recordingClient(stack, user, frames)
  if (user) await client.realtime.setAuth(user.jwt)
  const joined: string[] = []
  await Promise.all(
    topics.map(
      (topic) =>
        new Promise<void>((resolve) => {
          let channel: RealtimeChannel = client.channel(topic, { config: { private: isPrivate } })
          for (const { schema, name } of tables) {
            channel = channel.on('postgres_changes', { event: '*', schema, table: name }, () => {})
          }
          channel
            .on('broadcast', { event: '*' }, () => {})
            .on('presence', { event: 'sync' }, () => {})
            .subscribe((status) => {
              if (status === 'SUBSCRIBED') joined.push(topic)
              if (status !== 'CLOSED') resolve()
            })
        }),
    ),
  )
  return { client, frames, joined }
}

/** Joins each topic as `user` to send a broadcast and track presence, both carrying `text`. */
export async function speak(
  stack: Stack,
  user: User,
  topics: string[],
  isPrivate: boolean,
  text: string,
): Promise<SupabaseClient> {
  const client = recordingClient(stack, user, [])
  await client.realtime.setAuth(user.jwt)
  await Promise.all(
    topics.map(async (topic) => {
      const channel = client.channel(topic, {
        config: { private: isPrivate, presence: { key: user.id } },
      })
      const status = await new Promise<string>((resolve) =>
        channel.subscribe((s) => {
          if (s !== 'CLOSED') resolve(s)
        }),
      )
      if (status !== 'SUBSCRIBED') return
      await channel.track({ user_id: user.id, name: text, typing: true })
      await channel.send({ type: 'broadcast', event: 'delta', payload: { text } })
    }),
  )
  return client
}

/**
 * Rewrites every row of every published table as it is (its first key column set to
 * itself), as the database owner: a change event per row, whoever owns it. Answers the
 * tables that had rows.
 */
export async function touchEveryRow(
  stack: Stack,
  tables: { schema: string; name: string }[],
): Promise<string[]> {
  const touched: string[] = []
  for (const { schema, name } of tables) {
    const table = `"${schema}"."${name}"`
    const { rows } = await stack.db.pg.query<{ key: string }>(
      `select a.attname as key from pg_index i
       join pg_attribute a on a.attrelid = i.indrelid and a.attnum = i.indkey[0]
       where i.indrelid = $1::regclass and i.indisprimary`,
      [table],
    )
    const key = `"${rows[0]!.key}"`
    const done = await stack.db.pg.query(`update ${table} set ${key} = ${key}`)
    if (done.affectedRows) touched.push(name)
  }
  return touched
}
