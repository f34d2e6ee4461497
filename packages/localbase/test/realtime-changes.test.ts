import type { RealtimePostgresChangesPayload, SupabaseClient } from '@supabase/supabase-js'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { startTestStack, type TestStack } from './helpers.ts'
import { Inbox, makeUser, realtimeClient, settle, subscribed } from './realtime-helpers.ts'

type Change = RealtimePostgresChangesPayload<Record<string, unknown>>

describe('realtime postgres_changes', () => {
  let stack: TestStack
  const clients: SupabaseClient[] = []
  const client = (options: Parameters<typeof realtimeClient>[1] = {}) => {
    const c = realtimeClient(stack, options)
    clients.push(c)
    return c
  }
  const sql = (text: string, params: unknown[] = []) => stack.db.pg.query(text, params)
  beforeAll(async () => {
    stack = await startTestStack('realtime')
  })
  afterEach(async () => {
    for (const c of clients.splice(0)) await c.removeAllChannels()
    await sql('delete from public.items')
  })
  afterAll(() => stack?.stop())

  it('delivers INSERT, UPDATE and DELETE with wal2json-shaped records', async () => {
    const user = await makeUser(stack)
    const c = client()
    await c.realtime.setAuth(user.token)
    const inbox = new Inbox<Change>()
    const system = new Inbox<unknown>()
    await subscribed(
      c
        .channel('todos-all')
        .on('postgres_changes', { event: '*', schema: 'public', table: 'todos' }, inbox.push)
        .on('system', {}, system.push),
    )
    expect(await system.waitFor(1)).toEqual([
      expect.objectContaining({
        extension: 'postgres_changes',
        status: 'ok',
        message: 'Subscribed to PostgreSQL',
        channel: 'todos-all',
      }),
    ])
    const { rows } = await sql(
      `insert into public.todos (owner_id, title, tags, meta, created_at)
       values ($1, 'write tests', '{a,b}', '{"n": 1}', '2024-05-06 07:08:09.123+00') returning id`,
      [user.id],
    )
    const id = Number((rows[0] as { id: number }).id)
    await inbox.waitFor(1)
    // INSERT/UPDATE visibility is checked against the row as it is now, as hosted Realtime does,
    // so let the update be delivered before the row goes away.
    await sql(`update public.todos set done = true where id = $1`, [id])
    await inbox.waitFor(2)
    await sql(`delete from public.todos where id = $1`, [id])
    const [insert, update, remove] = await inbox.waitFor(3)

    expect(insert).toMatchObject({
      schema: 'public',
      table: 'todos',
      eventType: 'INSERT',
      new: {
        id,
        owner_id: user.id,
        title: 'write tests',
        done: false,
        tags: ['a', 'b'],
        meta: { n: 1 },
        created_at: '2024-05-06 07:08:09.123+00',
      },
      old: {},
      errors: null,
    })
    expect(insert!.commit_timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/)
    expect(update).toMatchObject({ eventType: 'UPDATE', new: { id, done: true }, old: {} })
    expect(remove).toMatchObject({ eventType: 'DELETE', new: {}, old: { id } })
    expect(Object.keys((remove as { old: object }).old)).toEqual(['id'])
  })

  it('delivers rows only to subscribers whose RLS lets them see the row', async () => {
    const alice = await makeUser(stack)
    const bob = await makeUser(stack)
    const inboxes = {
      alice: new Inbox<Change>(),
      bob: new Inbox<Change>(),
      anon: new Inbox<Change>(),
    }
    for (const [name, token] of [
      ['alice', alice.token],
      ['bob', bob.token],
      ['anon', null],
    ] as const) {
      const c = client()
      if (token) await c.realtime.setAuth(token)
      await subscribed(
        c
          .channel(`todos-${name}`)
          .on(
            'postgres_changes',
            { event: '*', schema: 'public', table: 'todos' },
            inboxes[name].push,
          ),
      )
    }
    await sql(`insert into public.todos (owner_id, title) values ($1, 'alice secret')`, [alice.id])
    await sql(`insert into public.todos (owner_id, title) values ($1, 'bob secret')`, [bob.id])
    const [a] = await inboxes.alice.waitFor(1)
    const [b] = await inboxes.bob.waitFor(1)
    await settle()
    expect(inboxes.alice.items.map((c) => (c.new as { title: string }).title)).toEqual([
      'alice secret',
    ])
    expect(inboxes.bob.items.map((c) => (c.new as { title: string }).title)).toEqual(['bob secret'])
    expect(inboxes.anon.items).toEqual([])

    // DELETE is not RLS-checked, as hosted: everyone subscribed learns the primary key only.
    const aliceId = (a!.new as { id: number }).id
    await sql(`delete from public.todos where id = $1`, [aliceId])
    const [, bobDelete] = await inboxes.bob.waitFor(2)
    expect(bobDelete).toMatchObject({ eventType: 'DELETE', old: { id: aliceId } })
    expect(b).toBeDefined()
  })

  it('re-authorises a joined channel when the access token changes', async () => {
    const carol = await makeUser(stack)
    const c = client()
    const inbox = new Inbox<Change>()
    await subscribed(
      c
        .channel('todos-refresh')
        .on('postgres_changes', { event: 'INSERT', schema: 'public', table: 'todos' }, inbox.push),
    )
    await sql(`insert into public.todos (owner_id, title) values ($1, 'before login')`, [carol.id])
    await settle()
    expect(inbox.items).toEqual([])
    await c.realtime.setAuth(carol.token)
    await settle(100)
    await sql(`insert into public.todos (owner_id, title) values ($1, 'after login')`, [carol.id])
    const [got] = await inbox.waitFor(1)
    expect(got!.new).toMatchObject({ title: 'after login' })

    const system = new Inbox<{ status: string; message: string }>()
    c.getChannels()[0]!.on('system', {}, (m) => system.push(m))
    await c.realtime.setAuth('not.a.jwt')
    const [closed] = await system.waitFor(1)
    expect(closed).toMatchObject({ status: 'error', message: 'Failed to validate JWT signature' })
  })

  it('refuses an expired token at join and closes a channel when its token expires', async () => {
    const stale = await makeUser(stack, Math.floor(Date.now() / 1000) - 60)
    const c = client()
    await c.realtime.setAuth(stale.token)
    await expect(subscribed(c.channel('expired'))).rejects.toThrow(
      /InvalidJWTToken: Token has expired \d+ seconds ago/,
    )

    const brief = await makeUser(stack, Math.floor(Date.now() / 1000) + 2)
    const d = client()
    await d.realtime.setAuth(brief.token)
    const system = new Inbox<{ status: string; message: string }>()
    await subscribed(d.channel('brief').on('system', {}, (m) => system.push(m)))
    const [closed] = await system.waitFor(1, 5000)
    expect(closed).toMatchObject({
      status: 'error',
      message: expect.stringMatching(/^Token has expired/),
    })
  })

  it('applies every filter operator, negation and AND-composition', async () => {
    const filters = {
      eq: 'qty=eq.5',
      neq: 'qty=neq.5',
      lt: 'qty=lt.5',
      lte: 'qty=lte.5',
      gt: 'qty=gt.5',
      gte: 'qty=gte.5',
      in: 'name=in.(apple,"kiwi, gold")',
      like: 'name=like.ap%',
      ilike: 'name=ilike.AP%',
      is: 'qty=is.null',
      notIs: 'qty=not.is.null',
      match: 'name=match.^k[a-z]*d$',
      imatch: 'name=imatch.^K',
      isdistinct: 'qty=isdistinct.5',
      notEq: 'qty=not.eq.5',
      numeric: 'price=gt.9.5',
      and: 'qty=gt.1,qty=lt.10',
    }
    const got = Object.fromEntries(Object.keys(filters).map((k) => [k, [] as number[]]))
    let channel = client().channel('items-filters')
    for (const [name, filter] of Object.entries(filters)) {
      channel = channel.on(
        'postgres_changes',
        { event: 'INSERT', schema: 'public', table: 'items', filter },
        (change) => got[name]!.push((change.new as { id: number }).id),
      )
    }
    const all = new Inbox<Change>()
    channel.on('postgres_changes', { event: 'INSERT', schema: 'public', table: 'items' }, all.push)
    await subscribed(channel)
    await sql(`insert into public.items (id, name, qty, price) values
      (1, 'apple', 5, 10.00), (2, 'Apricot', 2, 1.50), (3, 'kiwi, gold', 12, 9.99),
      (4, 'kind', null, null)`)
    await all.waitFor(4)
    await settle(100)
    for (const list of Object.values(got)) list.sort()
    expect(got).toEqual({
      eq: [1],
      neq: [2, 3],
      lt: [2],
      lte: [1, 2],
      gt: [3],
      gte: [1, 3],
      in: [1, 3],
      like: [1],
      ilike: [1, 2],
      is: [4],
      notIs: [1, 2, 3],
      match: [4],
      imatch: [3, 4],
      isdistinct: [2, 3, 4],
      notEq: [2, 3],
      numeric: [1, 3],
      and: [1, 2],
    })
  })

  it('echoes bindings in order with integer ids, and reports a bad filter', async () => {
    const system = new Inbox<{ status: string; message: string }>()
    const channel = client()
      .channel('items-bad')
      .on(
        'postgres_changes',
        { event: 'UPDATE', schema: 'public', table: 'items', filter: 'qty=foo.1' },
        () => {},
      )
      .on('system', {}, (m) => system.push(m))
    await subscribed(channel)
    const [message] = await system.waitFor(1)
    expect(message).toMatchObject({
      status: 'error',
      message: expect.stringContaining('Error parsing `filter` params'),
    })
    const binding = (channel as unknown as { bindings: { postgres_changes: { id: unknown }[] } })
      .bindings.postgres_changes[0]
    expect(Number.isInteger(binding!.id)).toBe(true)
  })

  it('streams a table that a later migration added to the publication, on vsn 1.0.0', async () => {
    const inbox = new Inbox<Change>()
    await subscribed(
      client({ vsn: '1.0.0' })
        .channel('later')
        .on('postgres_changes', { event: 'INSERT', schema: 'public', table: 'later' }, inbox.push),
    )
    await sql(`insert into public.later values (7, 'seen')`)
    const [got] = await inbox.waitFor(1)
    expect(got!.new).toEqual({ id: 7, note: 'seen' })
  })

  it('sends old values with REPLICA IDENTITY FULL, for writes made through REST', async () => {
    const inbox = new Inbox<Change>()
    const c = client()
    await subscribed(
      c
        .channel('items-rest')
        .on('postgres_changes', { event: '*', schema: 'public', table: 'items' }, inbox.push),
    )
    const items = stack.admin().from('items')
    expect((await items.insert({ id: 40, name: 'pear', qty: 1, price: 2.5 })).error).toBeNull()
    expect((await items.update({ qty: 2 }).eq('id', 40)).error).toBeNull()
    expect((await items.delete().eq('id', 40)).error).toBeNull()
    const [insert, update, remove] = await inbox.waitFor(3)
    expect(insert).toMatchObject({ eventType: 'INSERT', new: { id: 40, price: 2.5 } })
    expect(update).toMatchObject({
      eventType: 'UPDATE',
      new: { id: 40, qty: 2 },
      old: { id: 40, name: 'pear', qty: 1, price: 2.5 },
    })
    expect(remove).toMatchObject({
      eventType: 'DELETE',
      old: { id: 40, name: 'pear', qty: 2, price: 2.5 },
    })
  })

  it('leaves out columns the role may not SELECT', async () => {
    const anon = new Inbox<Change>()
    const admin = new Inbox<Change>()
    await subscribed(
      client()
        .channel('profiles-anon')
        .on(
          'postgres_changes',
          { event: 'INSERT', schema: 'public', table: 'profiles' },
          anon.push,
        ),
    )
    await subscribed(
      client({ key: stack.config.keys.serviceRoleKey })
        .channel('profiles-admin')
        .on(
          'postgres_changes',
          { event: 'INSERT', schema: 'public', table: 'profiles' },
          admin.push,
        ),
    )
    await sql(`insert into public.profiles values (1, 'ann', 'hunter2')`)
    const [seen] = await anon.waitFor(1)
    const [full] = await admin.waitFor(1)
    expect(seen!.new).toEqual({ id: 1, name: 'ann' })
    expect(full!.new).toEqual({ id: 1, name: 'ann', secret: 'hunter2' })
  })

  it('sends only the selected columns (plus the primary key) to a binding with select', async () => {
    const narrow = new Inbox<Change>()
    const wide = new Inbox<Change>()
    await subscribed(
      client()
        .channel('items-select')
        .on(
          'postgres_changes',
          { event: 'INSERT', schema: 'public', table: 'items', select: ['name'] },
          narrow.push,
        )
        .on('postgres_changes', { event: 'INSERT', schema: 'public', table: 'items' }, wide.push),
    )
    await sql(`insert into public.items values (50, 'plum', 3, 0.5)`)
    const [n] = await narrow.waitFor(1)
    const [w] = await wide.waitFor(1)
    expect(n!.new).toEqual({ id: 50, name: 'plum' })
    expect(w!.new).toEqual({ id: 50, name: 'plum', qty: 3, price: 0.5 })
    await settle(100)
    expect(narrow.items).toHaveLength(1)
  })

  it('delivers a burst of writes to every subscriber, in order, while REST keeps answering', async () => {
    const inboxes = Array.from({ length: 6 }, () => new Inbox<Change>())
    for (const [i, inbox] of inboxes.entries()) {
      await subscribed(
        client()
          .channel(`burst-${i}`)
          .on(
            'postgres_changes',
            { event: 'INSERT', schema: 'public', table: 'items' },
            inbox.push,
          ),
      )
    }
    await sql(
      `insert into public.items (id, name) select g, 'n' || g from generate_series(1, 600) g`,
    )
    const rest = await stack.client().from('items').select('id').eq('id', 600)
    expect(rest.data).toEqual([{ id: 600 }])
    for (const inbox of inboxes) {
      const got = await inbox.waitFor(600, 15_000)
      expect(got.map((c) => (c.new as { id: number }).id)).toEqual(
        Array.from({ length: 600 }, (_, i) => i + 1),
      )
    }
  })

  it('follows a table added to the publication at run time, and stops after it is dropped', async () => {
    await sql(`create table public.runtime_t (id int primary key)`)
    await sql(`alter publication supabase_realtime add table public.runtime_t`)
    const inbox = new Inbox<Change>()
    await subscribed(
      client()
        .channel('runtime')
        .on('postgres_changes', { event: '*', schema: 'public', table: 'runtime_t' }, inbox.push),
    )
    await sql(`insert into public.runtime_t values (1)`)
    await inbox.waitFor(1)
    await sql(`alter publication supabase_realtime drop table public.runtime_t`)
    await sql(`insert into public.runtime_t values (2)`)
    await settle()
    expect(inbox.items.map((c) => c.new)).toEqual([{ id: 1 }])
  })

  it('authorises private channels by RLS on realtime.messages', async () => {
    const member = await makeUser(stack)
    const join = async (topic: string, token: string | null) => {
      const c = client()
      if (token) await c.realtime.setAuth(token)
      const inbox = new Inbox<unknown>()
      const channel = c
        .channel(topic, { config: { private: true } })
        .on('broadcast', { event: 'm' }, (m) => inbox.push(m.payload))
      return { channel: await subscribed(channel), inbox }
    }
    await expect(join('team-a', null)).rejects.toThrow(
      /Unauthorized: You do not have permissions to read from this Channel topic: team-a/,
    )
    await expect(join('other', member.token)).rejects.toThrow(/Unauthorized/)

    // team-a is readable but not writable: the member's sends are dropped.
    const readerA = await join('team-a', member.token)
    const writerA = await join('team-a', member.token)
    await writerA.channel.send({ type: 'broadcast', event: 'm', payload: { n: 1 } })
    // team-write allows both.
    const readerW = await join('team-write', member.token)
    const writerW = await join('team-write', member.token)
    await writerW.channel.send({ type: 'broadcast', event: 'm', payload: { n: 2 } })
    expect(await readerW.inbox.waitFor(1)).toEqual([{ n: 2 }])
    await settle()
    expect(readerA.inbox.items).toEqual([])

    // A public channel of the same name is a different audience.
    const publicInbox = new Inbox<unknown>()
    await subscribed(
      client()
        .channel('team-write')
        .on('broadcast', { event: 'm' }, (m) => publicInbox.push(m.payload)),
    )
    const http = await fetch(`${stack.url}/realtime/v1/api/broadcast`, {
      method: 'POST',
      headers: {
        apikey: stack.config.keys.anonKey,
        authorization: `Bearer ${member.token}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify({
        messages: [{ topic: 'team-write', event: 'm', payload: { n: 3 }, private: true }],
      }),
    })
    expect(http.status).toBe(202)
    expect(await readerW.inbox.waitFor(2)).toEqual([{ n: 2 }, { n: 3 }])
    await settle()
    expect(publicInbox.items).toEqual([])
  })

  it('authorises presence and broadcast separately on a private channel', async () => {
    const member = await makeUser(stack)
    const join = async (key: string) => {
      const c = client()
      await c.realtime.setAuth(member.token)
      const heard = new Inbox<unknown>()
      const channel = c
        .channel('presence-only', { config: { private: true, presence: { key } } })
        .on('broadcast', { event: 'm' }, (m) => heard.push(m.payload))
        .on('presence', { event: 'sync' }, () => {})
      return { channel: await subscribed(channel), heard }
    }
    const a = await join('a')
    const b = await join('b')
    expect(await b.channel.track({ here: true })).toBe('ok')
    await expect.poll(() => a.channel.presenceState()).toHaveProperty('b')
    await b.channel.send({ type: 'broadcast', event: 'm', payload: { n: 1 } })
    await settle()
    expect(a.heard.items).toEqual([])
  })
})
