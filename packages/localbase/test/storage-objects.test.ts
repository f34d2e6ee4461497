import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestStack, type TestStack } from './helpers.ts'
import { makeUser, type TestUser } from './fixtures/storage/users.ts'

describe('storage objects', () => {
  let stack: TestStack
  let alice: TestUser
  beforeAll(async () => {
    stack = await startTestStack('storage')
    alice = await makeUser(stack)
  })
  afterAll(() => stack?.stop())

  it('uploads a raw body and downloads it with its headers', async () => {
    const files = stack.admin().storage.from('private')
    const up = await files.upload('docs/hello.txt', 'hello world', { contentType: 'text/plain' })
    expect(up.error).toBeNull()
    expect(up.data).toMatchObject({ path: 'docs/hello.txt', fullPath: 'private/docs/hello.txt' })
    expect(up.data!.id).toMatch(/^[0-9a-f-]{36}$/)

    const down = await files.download('docs/hello.txt')
    expect(down.error).toBeNull()
    expect(await down.data!.text()).toBe('hello world')

    const res = await fetch(`${stack.url}/storage/v1/object/private/docs/hello.txt`, {
      headers: { authorization: `Bearer ${stack.config.keys.serviceRoleKey}` },
    })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('text/plain')
    expect(res.headers.get('content-length')).toBe('11')
    expect(res.headers.get('cache-control')).toBe('max-age=3600')
    expect(res.headers.get('etag')).toBe('"5eb63bbbe01eeed093cb22bb8f5acdc3"')
    expect(new Date(res.headers.get('last-modified')!).getTime()).toBeGreaterThan(0)
  })
})
