import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DEFAULT_ANON_KEY } from '../src/config/keys.ts'
import { startTestStack, type TestStack } from './helpers.ts'

// Beyond plain foreign keys: computed fields and relationships, self references, FK-name
// embeds, aggregates, CSV quoting, upsert statuses and raw-body functions.

let stack: TestStack
const db = () => stack.client()

beforeAll(async () => {
  stack = await startTestStack('rest')
})
afterAll(() => stack?.stop())

describe('functions of a row', () => {
  it('selects, filters and orders by a computed field', async () => {
    const { data } = await db().from('tags').select('id, shout').eq('shout', 'QUOTE')
    expect(data).toEqual([{ id: 2, shout: 'QUOTE' }])
  })

  it('embeds a computed relationship', async () => {
    const { data } = await db().from('tags').select('name, tag_messages(id)').eq('id', 1)
    expect(data).toEqual([{ name: 'greeting', tag_messages: [{ id: 1 }, { id: 3 }] }])
  })
})

describe('relationship naming', () => {
  it('embeds the children of a self-referencing table by its name, the parent by column', async () => {
    const { data } = await db()
      .from('folders')
      .select('name, folders(name), parent:parent_id(name)')
      .order('id')
    expect(data).toEqual([
      { name: 'root', folders: [{ name: 'docs' }, { name: 'pics' }], parent: null },
      { name: 'docs', folders: [], parent: { name: 'root' } },
      { name: 'pics', folders: [], parent: { name: 'root' } },
    ])
  })

  it('embeds views through the keys of their base tables', async () => {
    const { data } = await db()
      .from('active_users')
      .select('username, messages(id)')
      .eq('username', 'supabot')
    expect(data).toEqual([{ username: 'supabot', messages: [{ id: 1 }, { id: 2 }] }])
    const back = await db().from('messages').select('id, active_users(status)').eq('id', 3)
    expect(back.data).toEqual([{ id: 3, active_users: null }])
  })

  it('embeds through a foreign key named as the target', async () => {
    const { data } = await db()
      .from('users')
      .select('username, firsts:best_friends_first_user_fkey(id)')
      .eq('username', 'supabot')
    expect(data).toEqual([{ username: 'supabot', firsts: [{ id: 1 }] }])
  })
})

describe('aggregates', () => {
  it('counts embedded rows and aggregates columns', async () => {
    const { data } = await db().from('channels').select('slug, messages(count)').order('id')
    expect(data).toEqual([
      { slug: 'public', messages: [{ count: 2 }] },
      { slug: 'random', messages: [{ count: 1 }] },
      { slug: 'empty', messages: [{ count: 0 }] },
    ])
    const sums = await db()
      .from('messages')
      .select('channel_id, id.sum(), id.max()')
      .order('channel_id')
    expect(sums.data).toEqual([
      { channel_id: 1, sum: 4, max: 3 },
      { channel_id: 2, sum: 2, max: 2 },
    ])
  })

  it('groups by spread columns', async () => {
    const { data } = await db()
      .from('messages')
      .select('count(), ...users(status)')
      .order('status', { referencedTable: 'users' })
    expect(data).toEqual(
      expect.arrayContaining([
        { count: 2, status: 'ONLINE' },
        { count: 1, status: 'OFFLINE' },
      ]),
    )
  })
})

describe('wire details', () => {
  it('quotes CSV cells as Postgres text: ranges, tsvectors and jsonb', async () => {
    const { data } = await db()
      .from('users')
      .select('username, age_range, catchphrase, data')
      .eq('username', 'awailas')
      .csv()
    expect(data).toBe(
      'username,age_range,catchphrase,data\nawailas,"[25,35)","\'bat\':1 \'rat\':2","{""a"": {""b"": 2}}"',
    )
  })

  it('answers 200 for an upsert that only updated, 201 when a row is new', async () => {
    const updated = await db().from('tags').upsert({ id: 1, name: 'greeting' })
    expect(updated.status).toBe(200)
    const created = await db().from('tags').upsert({ id: 300, name: 'new' })
    expect(created.status).toBe(201)
    const ignored = await db().from('tags').upsert({ id: 1, name: 'x' }, { ignoreDuplicates: true })
    expect(ignored.status).toBe(201)
  })

  it('passes the raw body to a single unnamed text parameter', async () => {
    const res = await fetch(`${stack.url}/rest/v1/rpc/raw_length`, {
      method: 'POST',
      headers: { apikey: DEFAULT_ANON_KEY, 'content-type': 'application/json' },
      body: '{"a":1}',
    })
    expect(await res.json()).toBe(7)
  })
})
