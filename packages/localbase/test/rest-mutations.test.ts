import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DEFAULT_ANON_KEY } from '../src/config/keys.ts'
import { startTestStack, type TestStack } from './helpers.ts'

// Writes through supabase-js: insert, upsert, update, delete and the Prefer/Accept variants.

let stack: TestStack
const db = () => stack.client()
const send = (method: string, path: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${stack.url}/rest/v1/${path}`, {
    method,
    headers: { apikey: DEFAULT_ANON_KEY, 'content-type': 'application/json', ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
const tagNames = async (minId: number) =>
  (
    await stack.db.pg.query<{ id: number; name: string }>(
      'select id, name from public.tags where id >= $1 order by id',
      [minId],
    )
  ).rows

beforeAll(async () => {
  stack = await startTestStack('rest')
})
afterAll(() => stack?.stop())

describe('insert', () => {
  it('answers 201 with an empty body by default (return=minimal)', async () => {
    const res = await send('POST', 'tags', { id: 100, name: 'minimal' })
    expect(res.status).toBe(201)
    expect(await res.text()).toBe('')
    expect(await tagNames(100)).toEqual([{ id: 100, name: 'minimal' }])
  })

  it('inserts in bulk and returns the rows with return=representation', async () => {
    const { data, status } = await db()
      .from('tags')
      .insert([
        { id: 101, name: 'a' },
        { id: 102, name: 'b' },
      ])
      .select()
    expect(status).toBe(201)
    expect(data).toEqual([
      { id: 101, name: 'a' },
      { id: 102, name: 'b' },
    ])
  })

  it('keeps every digit of the numbers sent, as PostgREST passes the body on as written', async () => {
    // Past 2^53 and past a double's precision: JSON.parse would round both.
    const write = (method: string, path: string, body: string, prefer = '') =>
      fetch(`${stack.url}/rest/v1/${path}`, {
        method,
        headers: { apikey: DEFAULT_ANON_KEY, 'content-type': 'application/json', prefer },
        body,
      })
    const digits = async (id: number) =>
      (
        await stack.db.pg.query<{ big: string; num: string }>(
          'select big::text, num::text from public.kinds where id = $1',
          [id],
        )
      ).rows[0]
    expect((await write('POST', 'kinds', '{"id": -30, "big": 9007199254740993}')).status).toBe(201)
    expect(await digits(-30)).toMatchObject({ big: '9007199254740993' })
    const many = '[{"id": -31, "num": 0.1000000000000000055511151231257827}, {"id": -32, "big": 1}]'
    expect((await write('POST', 'kinds', many, 'missing=default')).status).toBe(201)
    expect(await digits(-31)).toMatchObject({ num: '0.1000000000000000055511151231257827' })
    const update = '{"big": 9007199254740995, "num": 1.00000000000000000001}'
    expect((await write('PATCH', 'kinds?id=eq.-32', update)).status).toBe(204)
    expect(await digits(-32)).toEqual({ big: '9007199254740995', num: '1.00000000000000000001' })
  })

  it('fills missing columns with defaults when asked, and with null otherwise', async () => {
    await db()
      .from('kinds')
      .insert([{ id: 10, big: 1 }, { id: 11 }], { defaultToNull: false })
    await db()
      .from('kinds')
      .insert([{ id: 12, note: 'given' }, { id: 13 }])
    const { rows } = await stack.db.pg.query(
      'select id, note from public.kinds where id >= 10 order by id',
    )
    expect(rows).toEqual([
      { id: 10, note: 'default note' },
      { id: 11, note: 'default note' },
      { id: 12, note: 'given' },
      { id: 13, note: null },
    ])
  })

  it('sends a Location header with return=headers-only', async () => {
    const res = await send(
      'POST',
      'tags',
      { id: 103, name: 'located' },
      { prefer: 'return=headers-only' },
    )
    expect(res.status).toBe(201)
    expect(res.headers.get('location')).toBe('/tags?id=eq.103')
  })

  it('embeds related rows in the representation', async () => {
    const { data } = await db()
      .from('messages')
      .insert({ id: 50, message: 'new', channel_id: 2, username: 'awailas' })
      .select('id, users(status), channels(slug)')
      .single()
    expect(data).toEqual({ id: 50, users: { status: 'ONLINE' }, channels: { slug: 'random' } })
  })

  it('answers 409 for a duplicate key and 409 for a missing foreign row', async () => {
    const dup = await db().from('tags').insert({ id: 1, name: 'again' })
    expect(dup.status).toBe(409)
    expect(dup.error).toEqual({
      code: '23505',
      details: 'Key (id)=(1) already exists.',
      hint: null,
      message: 'duplicate key value violates unique constraint "tags_pkey"',
    })
    const fk = await db().from('message_tags').insert({ message_id: 999, tag_id: 1 })
    expect(fk.status).toBe(409)
    expect(fk.error?.code).toBe('23503')
  })

  it('answers PGRST204 for an unknown column and PGRST102 for invalid JSON', async () => {
    const { status, error } = await db().from('tags').insert({ id: 104, nope: 1 })
    expect(status).toBe(400)
    expect(error).toEqual({
      code: 'PGRST204',
      details: null,
      hint: null,
      message: "Could not find the 'nope' column of 'tags' in the schema cache",
    })
    const res = await fetch(`${stack.url}/rest/v1/tags`, {
      method: 'POST',
      headers: { apikey: DEFAULT_ANON_KEY, 'content-type': 'application/json' },
      body: '{"id":',
    })
    expect(res.status).toBe(400)
    expect((await res.json()).code).toBe('PGRST102')
    expect(await tagNames(104)).toEqual([])
  })

  it('rolls the insert back when a single object was required but several rows came', async () => {
    const { status, error } = await db()
      .from('tags')
      .insert([
        { id: 105, name: 'x' },
        { id: 106, name: 'y' },
      ])
      .select()
      .single()
    expect(status).toBe(406)
    expect(error?.code).toBe('PGRST116')
    expect(error?.details).toBe('The result contains 2 rows')
    expect(await tagNames(105)).toEqual([])
  })

  it('answers normally but keeps nothing with tx=rollback', async () => {
    const res = await send(
      'POST',
      'tags',
      { id: 107, name: 'ghost' },
      {
        prefer: 'tx=rollback, return=representation',
      },
    )
    expect(res.status).toBe(201)
    expect(await res.json()).toEqual([{ id: 107, name: 'ghost' }])
    expect(await tagNames(107)).toEqual([])
  })
})

describe('upsert', () => {
  it('merges duplicates on the primary key or on_conflict columns', async () => {
    const { data, status } = await db()
      .from('tags')
      .upsert([
        { id: 2, name: 'quote!' },
        { id: 110, name: 'fresh' },
      ])
      .select()
    expect(status).toBe(201)
    expect(data).toEqual([
      { id: 2, name: 'quote!' },
      { id: 110, name: 'fresh' },
    ])
    await db().from('channels').insert({ id: 4, slug: 'temp' })
    const slug = await db()
      .from('channels')
      .upsert({ id: 5, slug: 'temp' }, { onConflict: 'slug' })
      .select()
    expect(slug.data).toEqual([{ id: 5, slug: 'temp' }])
  })

  it('ignores duplicates with ignoreDuplicates', async () => {
    const { data } = await db()
      .from('tags')
      .upsert({ id: 3, name: 'ignored' }, { ignoreDuplicates: true })
      .select()
    expect(data).toEqual([])
    expect((await db().from('tags').select('name').eq('id', 3)).data).toEqual([{ name: 'unused' }])
  })
})

describe('update and delete', () => {
  it('updates matching rows: 204 by default, 200 with the rows on request', async () => {
    const res = await send('PATCH', 'tags?id=eq.100', { name: 'changed' })
    expect(res.status).toBe(204)
    expect(await res.text()).toBe('')
    const { data, status } = await db()
      .from('tags')
      .update({ name: 'again' })
      .gte('id', 101)
      .lte('id', 102)
      .select()
    expect(status).toBe(200)
    expect(data).toEqual([
      { id: 101, name: 'again' },
      { id: 102, name: 'again' },
    ])
    expect(await tagNames(100)).toContainEqual({ id: 100, name: 'changed' })
  })

  // PostgREST's UpdateSpec "when patching with an empty body": no update is run, whatever
  // the filters match; 204 with no content type, or 200 and [] with return=representation.
  it('answers an update with nothing to set ({}, [] or [{}]) as PostgREST does, changing nothing', async () => {
    const before = await tagNames(100)
    for (const body of [{}, [], [{}]]) {
      const res = await send('PATCH', 'tags?id=eq.100', body)
      expect(res.status).toBe(204)
      expect(await res.text()).toBe('')
      expect(res.headers.get('content-type')).toBeNull()
      expect(res.headers.get('content-range')).toBe('*/*')
    }
    const res = await send(
      'PATCH',
      'tags?id=gte.100&select=id',
      {},
      {
        prefer: 'return=representation',
      },
    )
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual([])
    expect(res.headers.get('content-range')).toBe('*/*')
    expect(res.headers.get('preference-applied')).toBe('return=representation')

    const updated = await db().from('tags').update({}).eq('id', 100)
    expect(updated).toMatchObject({ error: null, status: 204 })
    const selected = await db().from('tags').update({}).eq('id', 100).select()
    expect(selected).toMatchObject({ error: null, status: 200, data: [] })
    expect(await tagNames(100)).toEqual(before)
  })

  it('counts affected rows and honours max-affected with handling=strict', async () => {
    const counted = await db()
      .from('tags')
      .update({ name: 'z' }, { count: 'exact' })
      .in('id', [101, 102])
    expect(counted.count).toBe(2)
    const res = await send('DELETE', 'tags?id=in.(101,102)', undefined, {
      prefer: 'handling=strict, max-affected=1',
    })
    expect(res.status).toBe(400)
    expect(await res.json()).toEqual({
      code: 'PGRST124',
      details: 'The query affects 2 rows',
      hint: null,
      message: 'Query result exceeds max-affected preference constraint',
    })
    expect((await tagNames(101)).map((r) => r.id)).toContain(102)
  })

  it('deletes matching rows and can return them', async () => {
    const { data, status } = await db().from('tags').delete().eq('id', 103).select()
    expect(status).toBe(200)
    expect(data).toEqual([{ id: 103, name: 'located' }])
    const gone = await db().from('tags').delete().eq('id', 103)
    expect(gone.status).toBe(204)
  })

  it('writes to another schema with Content-Profile', async () => {
    const { status } = await db()
      .schema('personal')
      .from('diary')
      .insert({ id: 2, entry: 'second' })
    expect(status).toBe(201)
    const { data } = await db()
      .schema('personal')
      .from('diary')
      .delete()
      .eq('id', 2)
      .select('entry')
    expect(data).toEqual([{ entry: 'second' }])
  })
})
