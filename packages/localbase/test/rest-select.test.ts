import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DEFAULT_ANON_KEY } from '../src/config/keys.ts'
import { startTestStack, type TestStack } from './helpers.ts'

// Reads through supabase-js: select grammar, embeds of each cardinality, order, paging, counts.

let stack: TestStack
const db = () => stack.client()
const raw = (path: string, headers: Record<string, string> = {}) =>
  fetch(`${stack.url}/rest/v1/${path}`, { headers: { apikey: DEFAULT_ANON_KEY, ...headers } })

beforeAll(async () => {
  stack = await startTestStack('rest')
})
afterAll(() => stack?.stop())

describe('select list', () => {
  it('selects columns with aliases, casts and JSON paths', async () => {
    const { data, error } = await db()
      .from('users')
      .select('name:username, range:age_range::text, b:data->a->b, first_tag:data->tags->>0')
      .eq('username', 'supabot')
    expect(error).toBeNull()
    expect(data).toEqual([{ name: 'supabot', range: '[1,2)', b: 1, first_tag: 'x' }])
  })

  it('prints values as PostgREST does: bigint, numeric, timestamptz, arrays, ranges, jsonb', async () => {
    const res = await raw('kinds?select=id,big,num,ts,arr,rng,doc&id=eq.1')
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8')
    expect(await res.text()).toBe(
      '[{"id":1,"big":9007199254740993,"num":12.50,"ts":"2024-01-01T12:00:00+00:00","arr":["a","b"],"rng":"[1,5)","doc":{"k": [1, 2]}}]',
    )
  })

  it('answers [] for no rows and reads views', async () => {
    expect((await db().from('users').select().eq('username', 'nobody')).data).toEqual([])
    const { data } = await db().from('active_users').select('username').order('username')
    expect(data).toEqual([
      { username: 'awailas' },
      { username: 'dragarcia' },
      { username: 'supabot' },
    ])
  })

  it('counts with count() and groups by the other columns', async () => {
    const { data } = await db().from('users').select('status, count()').order('status')
    expect(data).toEqual([
      { status: 'OFFLINE', count: 1 },
      { status: 'ONLINE', count: 3 },
    ])
  })

  it('rejects an unknown column with 42703 and bad syntax with PGRST100', async () => {
    const unknown = await db().from('users').select('username, nope')
    expect(unknown.status).toBe(400)
    expect(unknown.error).toEqual({
      code: '42703',
      details: null,
      hint: null,
      message: 'column users.nope does not exist',
    })
    const bad = await raw('users?select=username,,status')
    expect(bad.status).toBe(400)
    expect((await bad.json()).code).toBe('PGRST100')
    const cast = await raw('users?select=username::text;drop')
    expect(cast.status).toBe(400)
  })

  it('answers 404 PGRST205 for an unknown table', async () => {
    const { error, status } = await db().from('nope').select()
    expect(status).toBe(404)
    expect(error).toEqual({
      code: 'PGRST205',
      details: null,
      hint: null,
      message: "Could not find the table 'public.nope' in the schema cache",
    })
  })
})

describe('embedded resources', () => {
  it('embeds many-to-one as an object, one-to-one as an object, many-to-many as an array', async () => {
    const { data, error } = await db()
      .from('messages')
      .select('id, users(username), channels(slug, channel_details(details)), tags(name)')
      .in('id', [1, 2])
      .order('id')
    expect(error).toBeNull()
    expect(data).toEqual([
      {
        id: 1,
        users: { username: 'supabot' },
        channels: { slug: 'public', channel_details: { details: 'the public channel' } },
        tags: [{ name: 'greeting' }],
      },
      {
        id: 2,
        users: { username: 'supabot' },
        channels: { slug: 'random', channel_details: null },
        tags: [{ name: 'quote' }],
      },
    ])
  })

  it('embeds one-to-many as an array, empty when nothing matches', async () => {
    const { data } = await db().from('channels').select('slug, messages(id)').order('id')
    expect(data).toEqual([
      { slug: 'public', messages: [{ id: 1 }, { id: 3 }] },
      { slug: 'random', messages: [{ id: 2 }] },
      { slug: 'empty', messages: [] },
    ])
  })

  it('answers 300 PGRST201 for an ambiguous embed, and follows an FK or column hint', async () => {
    const ambiguous = await db().from('best_friends').select('users(username)')
    expect(ambiguous.status).toBe(300)
    expect(ambiguous.error).toEqual({
      code: 'PGRST201',
      details: [
        {
          cardinality: 'many-to-one',
          embedding: 'best_friends with users',
          relationship:
            'best_friends_first_user_fkey using best_friends(first_user) and users(username)',
        },
        {
          cardinality: 'many-to-one',
          embedding: 'best_friends with users',
          relationship:
            'best_friends_second_user_fkey using best_friends(second_user) and users(username)',
        },
      ],
      hint: "Try changing 'users' to one of the following: 'users!best_friends_first_user_fkey', 'users!best_friends_second_user_fkey'. Find the desired relationship in the 'details' key.",
      message:
        "Could not embed because more than one relationship was found for 'best_friends' and 'users'",
    })
    const { data } = await db()
      .from('best_friends')
      .select(
        'id, first:users!best_friends_first_user_fkey(username), second:users!second_user(username)',
      )
      .order('id')
    expect(data).toEqual([
      { id: 1, first: { username: 'supabot' }, second: { username: 'kiwicopple' } },
      { id: 2, first: { username: 'awailas' }, second: { username: 'supabot' } },
    ])
  })

  it('answers 400 PGRST200 when there is no relationship', async () => {
    const { status, error } = await db().from('tags').select('users(*)')
    expect(status).toBe(400)
    expect(error).toEqual({
      code: 'PGRST200',
      details:
        "Searched for a foreign key relationship between 'tags' and 'users' in the schema 'public', but no matches were found.",
      hint: null,
      message: "Could not find a relationship between 'tags' and 'users' in the schema cache",
    })
  })

  it('filters, orders and limits embedded rows without removing parents', async () => {
    const { data } = await db()
      .from('channels')
      .select('id, messages(id)')
      .eq('messages.username', 'kiwicopple')
      .order('id', { referencedTable: 'messages', ascending: false })
      .limit(1, { referencedTable: 'messages' })
      .order('id')
    expect(data).toEqual([
      { id: 1, messages: [{ id: 3 }] },
      { id: 2, messages: [] },
      { id: 3, messages: [] },
    ])
  })

  it('removes parents without a match with !inner, and filters on null embeds', async () => {
    const inner = await db()
      .from('channels')
      .select('id, messages!inner(id)')
      .eq('messages.username', 'kiwicopple')
    expect(inner.data).toEqual([{ id: 1, messages: [{ id: 3 }] }])
    const none = await db()
      .from('channels')
      .select('id, channel_details(id)')
      .is('channel_details', null)
    expect(none.data?.map((r) => r.id)).toEqual([2, 3])
    const some = await db()
      .from('channels')
      .select('id, messages(id)')
      .not('messages', 'is', null)
      .order('id')
    expect(some.data?.map((r) => r.id)).toEqual([1, 2])
  })

  it('spreads a to-one embed into its parent', async () => {
    const { data } = await db().from('messages').select('id, ...users(status)').eq('id', 3)
    expect(data).toEqual([{ id: 3, status: 'OFFLINE' }])
  })

  it('orders by a to-one embed column', async () => {
    const { data } = await db()
      .from('messages')
      .select('id, users(status)')
      .order('status', { referencedTable: 'users' })
      .order('id', { ascending: false })
    expect(data?.map((r) => r.id)).toEqual([3, 2, 1])
  })

  it('answers PGRST108 for filters on something that is not embedded', async () => {
    const res = await raw('channels?select=id&messages.id=eq.1')
    expect(res.status).toBe(400)
    expect((await res.json()).code).toBe('PGRST108')
  })
})

describe('order, paging and counts', () => {
  it('orders with nulls placement', async () => {
    const first = await db().from('kinds').select('id').order('ts', { nullsFirst: true })
    expect(first.data).toEqual([{ id: 2 }, { id: 1 }])
    const last = await db()
      .from('kinds')
      .select('id')
      .order('ts', { ascending: false, nullsFirst: false })
    expect(last.data).toEqual([{ id: 1 }, { id: 2 }])
  })

  it('counts exactly, answers 206 with Content-Range for a partial page', async () => {
    const { data, count, status } = await db()
      .from('messages')
      .select('id', { count: 'exact' })
      .order('id')
      .range(1, 1)
    expect({ data, count, status }).toEqual({ data: [{ id: 2 }], count: 3, status: 206 })
    const res = await raw('messages?select=id&order=id', { prefer: 'count=exact' })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-range')).toBe('0-2/3')
    const empty = await raw('messages?select=id&id=gt.100', { prefer: 'count=exact' })
    expect(empty.headers.get('content-range')).toBe('*/0')
    const uncounted = await raw('messages?select=id&limit=2')
    expect(uncounted.headers.get('content-range')).toBe('0-1/*')
  })

  it('returns only headers for HEAD with a count', async () => {
    const { data, count, status } = await db()
      .from('messages')
      .select('*', { count: 'exact', head: true })
    expect({ data, count, status }).toEqual({ data: null, count: 3, status: 200 })
  })

  it('honours the Range header and refuses an offset past the end with 416', async () => {
    const ranged = await raw('messages?select=id&order=id', { range: '1-2', 'range-unit': 'items' })
    expect(await ranged.json()).toEqual([{ id: 2 }, { id: 3 }])
    const past = await raw('messages?select=id&offset=10', { prefer: 'count=exact' })
    expect(past.status).toBe(416)
    expect(await past.json()).toEqual({
      code: 'PGRST103',
      details: 'An offset of 10 was requested, but there are only 3 rows.',
      hint: null,
      message: 'Requested range not satisfiable',
    })
  })

  it('caps reads at max_rows', async () => {
    const { data } = await db().rpc('numbers', { n: 80 })
    expect((data as number[]).length).toBe(50)
  })
})

describe('output formats', () => {
  it('answers a single object, or 406 PGRST116', async () => {
    const one = await db().from('tags').select('name').eq('id', 1).single()
    expect(one.data).toEqual({ name: 'greeting' })
    const many = await db().from('tags').select('name').single()
    expect(many.status).toBe(406)
    expect(many.error).toEqual({
      code: 'PGRST116',
      details: 'The result contains 3 rows',
      hint: null,
      message: 'Cannot coerce the result to a single JSON object',
    })
  })

  it('writes CSV and strips nulls when asked', async () => {
    const csv = await db().from('kinds').select('id, note').order('id').csv()
    expect(csv.data).toBe('id,note\n1,\n2,x')
    const res = await raw('kinds?select=id,note&order=id', {
      accept: 'application/vnd.pgrst.array+json;nulls=stripped',
    })
    expect(await res.json()).toEqual([{ id: 1 }, { id: 2, note: 'x' }])
  })

  it('refuses an unknown media type with 406 PGRST107', async () => {
    const res = await raw('tags', { accept: 'text/xml' })
    expect(res.status).toBe(406)
    expect((await res.json()).code).toBe('PGRST107')
  })

  it('reads another exposed schema with Accept-Profile and refuses others with PGRST106', async () => {
    const { data } = await db().schema('personal').from('diary').select('entry')
    expect(data).toEqual([{ entry: 'first' }])
    const res = await raw('diary', { 'accept-profile': 'auth' })
    expect(res.status).toBe(406)
    expect(await res.json()).toEqual({
      code: 'PGRST106',
      details: null,
      hint: 'Only the following schemas are exposed: public, personal',
      message: 'Invalid schema: auth',
    })
  })
})
