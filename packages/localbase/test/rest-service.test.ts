import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DEFAULT_ANON_KEY } from '../src/config/keys.ts'
import { startTestStack, type TestStack } from './helpers.ts'

// The service around the queries: schema cache reloads, paths, methods, profiles on writes.

let stack: TestStack
const call = (method: string, path: string, headers: Record<string, string> = {}) =>
  fetch(`${stack.url}/rest/v1/${path}`, {
    method,
    headers: { apikey: DEFAULT_ANON_KEY, ...headers },
  })

beforeAll(async () => {
  stack = await startTestStack('rest')
})
afterAll(() => stack?.stop())

describe('schema cache', () => {
  it("sees new tables after NOTIFY pgrst, 'reload schema'", async () => {
    await stack.db.pg
      .exec(`create table public.later (id int primary key); insert into public.later values (7);
      grant select on public.later to anon;`)
    expect((await stack.client().from('later').select()).status).toBe(404)
    await stack.db.pg.exec(`notify pgrst, 'reload schema'`)
    await expect
      .poll(async () => (await stack.client().from('later').select()).data, { timeout: 5000 })
      .toEqual([{ id: 7 }])
  })
})

describe('paths and methods', () => {
  it('answers the root with an OpenAPI document', async () => {
    const res = await call('GET', '')
    expect(res.status).toBe(200)
    expect((await res.json()).swagger).toBe('2.0')
  })

  it('answers 404 PGRST125 for a path that is not a table or a function', async () => {
    const res = await call('GET', 'users/extra')
    expect(res.status).toBe(404)
    expect((await res.json()).code).toBe('PGRST125')
  })

  it('answers 405 PGRST117 for an unsupported method', async () => {
    const res = await call('PUT', 'tags?id=eq.1')
    expect(res.status).toBe(405)
    expect((await res.json()).code).toBe('PGRST117')
  })

  it('answers HEAD with headers and no body, errors included', async () => {
    const ok = await call('HEAD', 'tags')
    expect(ok.status).toBe(200)
    expect(ok.headers.get('content-range')).toBe('0-2/*')
    expect(await ok.text()).toBe('')
    const missing = await call('HEAD', 'nope')
    expect(missing.status).toBe(404)
    expect(await missing.text()).toBe('')
  })

  it('refuses an unexposed schema on writes with Content-Profile', async () => {
    const res = await call('DELETE', 'users', { 'content-profile': 'auth' })
    expect(res.status).toBe(406)
    expect((await res.json()).code).toBe('PGRST106')
  })

  it('serves repeated reads from the compiled plan with fresh data', async () => {
    const read = async () => (await stack.client().from('tags').select('name').eq('id', 1)).data
    expect(await read()).toEqual([{ name: 'greeting' }])
    await stack.db.pg.query(`update public.tags set name = 'hello' where id = 1`)
    expect(await read()).toEqual([{ name: 'hello' }])
  })
})
