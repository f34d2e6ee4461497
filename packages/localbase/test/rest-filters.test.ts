import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DEFAULT_ANON_KEY } from '../src/config/keys.ts'
import { startTestStack, type TestStack } from './helpers.ts'

// Horizontal filters: every operator, negation, quantifiers and logic trees.

let stack: TestStack
const names = async (query: string) => {
  const res = await fetch(`${stack.url}/rest/v1/users?select=username&order=username&${query}`, {
    headers: { apikey: DEFAULT_ANON_KEY },
  })
  const body = await res.json()
  if (res.status !== 200) return { status: res.status, body }
  return (body as { username: string }[]).map((r) => r.username)
}

beforeAll(async () => {
  stack = await startTestStack('rest')
})
afterAll(() => stack?.stop())

describe('operators', () => {
  it.each([
    ['username=eq.supabot', ['supabot']],
    ['status=neq.ONLINE', ['kiwicopple']],
    ['username=gt.kiwicopple', ['supabot']],
    ['username=gte.kiwicopple', ['kiwicopple', 'supabot']],
    ['username=lt.b', ['awailas']],
    ['username=lte.awailas', ['awailas']],
    ['username=like.*bot', ['supabot']],
    ['username=ilike.*BOT', ['supabot']],
    ['username=match.^k', ['kiwicopple']],
    ['username=imatch.^K', ['kiwicopple']],
    ['username=in.(supabot,"a,b",awailas)', ['awailas', 'supabot']],
    ['username=in.()', []],
    ['data=is.null', ['dragarcia', 'kiwicopple']],
    ['data=not.is.null', ['awailas', 'supabot']],
    ['status=isdistinct.ONLINE', ['kiwicopple']],
    ['catchphrase=fts.cat', ['dragarcia', 'kiwicopple', 'supabot']],
    ['catchphrase=fts.fat %26 !rat', ['dragarcia']],
    ['catchphrase=fts(english).cats', ['dragarcia', 'kiwicopple', 'supabot']],
    ['catchphrase=plfts(english).fat cats', ['dragarcia', 'supabot']],
    ['catchphrase=phfts(english).fat cats', ['dragarcia', 'supabot']],
    ['catchphrase=wfts(english).fat -rats', ['dragarcia']],
    ['data=cs.{"a":{"b":2}}', ['awailas']],
    ['data=cd.{"a":{"b":1},"tags":["x"],"z":1}', ['supabot']],
    ['age_range=ov.[1,30)', ['awailas', 'dragarcia', 'kiwicopple', 'supabot']],
    ['age_range=sl.[30,40)', ['dragarcia', 'supabot']],
    ['age_range=sr.[0,10)', ['awailas', 'dragarcia', 'kiwicopple']],
    ['age_range=nxr.[0,30)', ['dragarcia', 'supabot']],
    ['age_range=nxl.[24,30)', ['awailas', 'kiwicopple']],
    ['age_range=adj.[2,20)', ['dragarcia', 'supabot']],
    ['username=not.eq.supabot&status=eq.ONLINE', ['awailas', 'dragarcia']],
    ['username=like(any).{*bot,aw*}', ['awailas', 'supabot']],
    ['username=like(all).{*a*,*s*}', ['awailas', 'supabot']],
    ['username=eq(any).{supabot,kiwicopple}', ['kiwicopple', 'supabot']],
    ['data->a->>b=eq.2', ['awailas']],
    ['data->a->b=gt.1', ['awailas']],
  ])('%s', async (query, expected) => {
    expect(await names(query)).toEqual(expected)
  })

  it('filters array columns with cs, cd and ov', async () => {
    const db = stack.client()
    expect((await db.from('kinds').select('id').contains('arr', ['a'])).data).toEqual([{ id: 1 }])
    expect(
      (await db.from('kinds').select('id').containedBy('arr', ['a']).order('id')).data,
    ).toEqual([{ id: 2 }])
    expect((await db.from('kinds').select('id').overlaps('arr', ['b', 'c'])).data).toEqual([
      { id: 1 },
    ])
  })
})

describe('logic trees', () => {
  it.each([
    ['or=(username.eq.supabot,status.eq.OFFLINE)', ['kiwicopple', 'supabot']],
    ['or=(status.eq.OFFLINE,and(username.like.*s,status.eq.ONLINE))', ['awailas', 'kiwicopple']],
    ['and=(status.eq.ONLINE,not.or(username.eq.supabot,username.eq.awailas))', ['dragarcia']],
    ['not.or=(status.eq.ONLINE,username.eq.nobody)', ['kiwicopple']],
    ['or=(username.in.(supabot,awailas),data->a->>b.eq.2)', ['awailas', 'supabot']],
  ])('%s', async (query, expected) => {
    expect(await names(query)).toEqual(expected)
  })

  it('applies or= inside an embed', async () => {
    const { data } = await stack
      .client()
      .from('channels')
      .select('id, messages(id)')
      .or('id.eq.2,username.eq.kiwicopple', { referencedTable: 'messages' })
      .order('id')
    expect(data).toEqual([
      { id: 1, messages: [{ id: 3 }] },
      { id: 2, messages: [{ id: 2 }] },
      { id: 3, messages: [] },
    ])
  })
})

describe('bad filters', () => {
  it.each([
    'username=zz.x',
    'username=eq',
    'username=in.supabot',
    'username=is.maybe',
    'or=username.eq.x',
    'or=(username.eq.x,nonsense)',
    'username=eq(some).{a}',
    'order=username.sideways',
    'limit=-1',
    'offset=ten',
  ])('%s answers 400 PGRST100', async (query) => {
    const result = await names(query)
    expect(result).toMatchObject({ status: 400, body: { code: 'PGRST100' } })
  })

  it('answers 42703 for a filter on an unknown column', async () => {
    expect(await names('nope=eq.1')).toEqual({
      status: 400,
      body: {
        code: '42703',
        details: null,
        hint: null,
        message: 'column users.nope does not exist',
      },
    })
  })

  it('answers 400 with the Postgres error for a value of the wrong type', async () => {
    const result = await names('age_range=ov.notarange')
    expect(result).toMatchObject({ status: 400, body: { code: '22P02' } })
  })
})
