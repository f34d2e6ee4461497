import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DEFAULT_ANON_KEY } from '../src/config/keys.ts'
import { startTestStack, type TestStack } from './helpers.ts'

// RPC: every return kind, POST and GET, filters on set results, and the resolution errors.

let stack: TestStack
const db = () => stack.client()

beforeAll(async () => {
  stack = await startTestStack('rest')
})
afterAll(() => stack?.stop())

describe('return kinds', () => {
  it('returns a scalar, using parameter defaults', async () => {
    expect(await db().rpc('add', { a: 1, b: 2 })).toMatchObject({ data: 3, status: 200 })
    expect((await db().rpc('add', { a: 1 })).data).toBe(11)
  })

  it('returns a set of rows that can be filtered, ordered and embedded', async () => {
    const { data } = await db()
      .rpc('channel_messages', { channel: 1 })
      .select('id, users(status)')
      .neq('username', 'supabot')
    expect(data).toEqual([{ id: 3, users: { status: 'OFFLINE' } }])
    const ordered = await db()
      .rpc('channel_messages', { channel: 1 })
      .select('id')
      .order('id', { ascending: false })
    expect(ordered.data).toEqual([{ id: 3 }, { id: 1 }])
  })

  it('returns a set of scalars as an array, paged by limit', async () => {
    expect((await db().rpc('numbers', { n: 3 })).data).toEqual([1, 2, 3])
    expect((await db().rpc('numbers', { n: 5 }).limit(2)).data).toEqual([1, 2])
  })

  it('returns TABLE results as rows', async () => {
    expect((await db().rpc('stats')).data).toEqual([{ users: 4, messages: 3 }])
  })

  it('returns a single composite as an object, and commits its writes', async () => {
    const { data, status } = await db().rpc('add_tag', { id: 200, name: 'from rpc' })
    expect({ data, status }).toEqual({ data: { id: 200, name: 'from rpc' }, status: 200 })
    expect((await db().from('tags').select('name').eq('id', 200)).data).toEqual([
      { name: 'from rpc' },
    ])
  })

  it('answers 204 with no body for a void function', async () => {
    expect(await db().rpc('noop')).toMatchObject({ data: null, error: null, status: 204 })
  })

  it('passes the whole body to a single unnamed json parameter', async () => {
    expect((await db().rpc('echo', { any: ['thing', 1] })).data).toEqual({ any: ['thing', 1] })
  })
})

describe('GET and HEAD', () => {
  it('takes arguments from the query string, arrays as {a,b}', async () => {
    expect((await db().rpc('tagged', { tags: ['a', 'b', 'c'] }, { get: true })).data).toBe(3)
    expect((await db().rpc('add', { a: 2, b: 3 }, { get: true })).data).toBe(5)
  })

  it('filters a set result from the query string', async () => {
    const res = await fetch(
      `${stack.url}/rest/v1/rpc/channel_messages?channel=1&select=id&id=gt.1`,
      {
        headers: { apikey: DEFAULT_ANON_KEY },
      },
    )
    expect(await res.json()).toEqual([{ id: 3 }])
  })

  it('counts with HEAD', async () => {
    const { count, data, status } = await db().rpc(
      'numbers',
      { n: 4 },
      { head: true, count: 'exact' },
    )
    expect({ count, data, status }).toEqual({ count: 4, data: null, status: 200 })
  })

  it('refuses writes in a GET call with 405', async () => {
    const { status, error } = await db().rpc('add_tag', { id: 201, name: 'nope' }, { get: true })
    expect(status).toBe(405)
    expect(error?.code).toBe('25006')
  })
})

describe('errors', () => {
  it('answers 404 PGRST202 for an unknown function or arguments', async () => {
    const missing = await db().rpc('nope')
    expect(missing.status).toBe(404)
    expect(missing.error).toEqual({
      code: 'PGRST202',
      details:
        'Searched for the function public.nope without parameters or with a single unnamed json/jsonb parameter, but no matches were found in the schema cache.',
      hint: null,
      message: 'Could not find the function public.nope without parameters in the schema cache',
    })
    const wrongArgs = await db().rpc('add', { x: 1, y: 2 })
    expect(wrongArgs.error).toMatchObject({
      code: 'PGRST202',
      message: 'Could not find the function public.add(x, y) in the schema cache',
      details:
        'Searched for the function public.add with parameters x, y or with a single unnamed json/jsonb parameter, but no matches were found in the schema cache.',
    })
  })

  it('answers 300 PGRST203 for overloads it cannot choose between', async () => {
    const { status, error } = await db().rpc('pick', { a: 1 })
    expect(status).toBe(300)
    expect(error).toEqual({
      code: 'PGRST203',
      details: null,
      hint: 'Try renaming the parameters or the function itself in the database so function overloading can be resolved',
      message:
        'Could not choose the best candidate function between: public.pick(a => integer), public.pick(a => text)',
    })
  })

  it('answers 400 P0001 for a raised exception', async () => {
    expect(await db().rpc('fail', { msg: 'boom' })).toMatchObject({
      status: 400,
      error: { code: 'P0001', message: 'boom', details: null, hint: null },
    })
  })

  it('answers 400 for an argument of the wrong type', async () => {
    const { status, error } = await db().rpc('add', { a: 'one' })
    expect(status).toBe(400)
    expect(error?.code).toBe('22P02')
  })
})
