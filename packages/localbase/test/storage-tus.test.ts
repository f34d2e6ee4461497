import { randomBytes } from 'node:crypto'
import { readdirSync } from 'node:fs'
import * as tus from 'tus-js-client'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestStack, type TestStack } from './helpers.ts'
import { makeUser, type TestUser } from './fixtures/storage/users.ts'

const b64 = (s: string) => Buffer.from(s).toString('base64')

describe('storage TUS resumable uploads', () => {
  let stack: TestStack
  let alice: TestUser
  let endpoint: string
  beforeAll(async () => {
    stack = await startTestStack('storage')
    alice = await makeUser(stack)
    endpoint = `${stack.url}/storage/v1/upload/resumable`
  }, 180_000)
  afterAll(() => stack?.stop())
  const auth = () => ({ authorization: `Bearer ${alice.jwt}`, apikey: stack.config.keys.anonKey })
  const create = (name: string, length: number, extra: Record<string, string> = {}) =>
    fetch(endpoint, {
      method: 'POST',
      headers: {
        ...auth(),
        'tus-resumable': '1.0.0',
        'upload-length': String(length),
        'upload-metadata': `bucketName ${b64('private')},objectName ${b64(name)},contentType ${b64('application/pdf')},cacheControl ${b64('3600')}`,
        ...extra,
      },
    })

  it('uploads with tus-js-client in several chunks', async () => {
    const data = randomBytes(300_000)
    const name = `${alice.id}/tus.bin`
    await new Promise<void>((resolve, reject) => {
      const upload = new tus.Upload(data, {
        endpoint,
        chunkSize: 100_000,
        retryDelays: [],
        headers: auth(),
        metadata: { bucketName: 'private', objectName: name, contentType: 'application/pdf' },
        onSuccess: () => resolve(),
        onError: reject,
      })
      upload.start()
    })
    const down = await alice.client.storage.from('private').download(name)
    expect(Buffer.from(await down.data!.arrayBuffer()).equals(data)).toBe(true)
    const info = await alice.client.storage.from('private').info(name)
    expect(info.data).toMatchObject({ size: 300_000, contentType: 'application/pdf' })
  })

  it('resumes after a cut connection from the offset HEAD reports', async () => {
    const data = randomBytes(256 * 1024)
    const name = `${alice.id}/resumed.bin`
    const created = await create(name, data.length)
    expect(created.status).toBe(201)
    expect(created.headers.get('tus-resumable')).toBe('1.0.0')
    const location = created.headers.get('location')!
    expect(location.startsWith(`${endpoint}/`)).toBe(true)

    // Send the first 100 KiB, then cut the connection mid-request.
    const abort = new AbortController()
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(data.subarray(0, 100 * 1024))
      },
    })
    const cut = fetch(location, {
      method: 'PATCH',
      headers: {
        ...auth(),
        'tus-resumable': '1.0.0',
        'upload-offset': '0',
        'content-type': 'application/offset+octet-stream',
      },
      body,
      duplex: 'half',
      signal: abort.signal,
    } as RequestInit).catch(() => null)
    let offset = 0
    for (let i = 0; i < 50 && offset < 100 * 1024; i++) {
      await new Promise((r) => setTimeout(r, 50))
      const head = await fetch(location, {
        method: 'HEAD',
        headers: { ...auth(), 'tus-resumable': '1.0.0' },
      })
      offset = Number(head.headers.get('upload-offset'))
    }
    abort.abort()
    await cut
    await new Promise((r) => setTimeout(r, 100))
    const head = await fetch(location, {
      method: 'HEAD',
      headers: { ...auth(), 'tus-resumable': '1.0.0' },
    })
    expect(head.status).toBe(200)
    expect(head.headers.get('upload-length')).toBe(String(data.length))
    offset = Number(head.headers.get('upload-offset'))
    expect(offset).toBe(100 * 1024)
    expect((await alice.client.storage.from('private').exists(name)).data).toBe(false)

    const wrong = await fetch(location, {
      method: 'PATCH',
      headers: {
        ...auth(),
        'tus-resumable': '1.0.0',
        'upload-offset': '5',
        'content-type': 'application/offset+octet-stream',
      },
      body: data.subarray(5),
    })
    expect(wrong.status).toBe(409)

    // The cut PATCH may still be closing its file: the upload answers 423 (locked) until it
    // has, and a TUS client retries, as this does.
    const resume = () =>
      fetch(location, {
        method: 'PATCH',
        headers: {
          ...auth(),
          'tus-resumable': '1.0.0',
          'upload-offset': String(offset),
          'content-type': 'application/offset+octet-stream',
        },
        body: data.subarray(offset),
      })
    let rest = await resume()
    for (let retry = 0; rest.status === 423 && retry < 50; retry++) {
      await new Promise((r) => setTimeout(r, 20))
      rest = await resume()
    }
    expect(rest.status).toBe(204)
    expect(rest.headers.get('upload-offset')).toBe(String(data.length))
    const down = await alice.client.storage.from('private').download(name)
    expect(Buffer.from(await down.data!.arrayBuffer()).equals(data)).toBe(true)
    expect(readdirSync(`${stack.dataDir}/storage/tus`)).toEqual([])
  })

  it('checks RLS, size and type when the upload is created', async () => {
    const bob = await makeUser(stack)
    const denied = await fetch(endpoint, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${bob.jwt}`,
        'tus-resumable': '1.0.0',
        'upload-length': '10',
        'upload-metadata': `bucketName ${b64('private')},objectName ${b64(`${alice.id}/x`)}`,
      },
    })
    expect(denied.status).toBe(403)
    expect(await denied.text()).toBe('new row violates row-level security policy')
    const tooBig = await fetch(endpoint, {
      method: 'POST',
      headers: {
        ...auth(),
        'tus-resumable': '1.0.0',
        'upload-length': String(2 * 1024 * 1024),
        'upload-metadata': `bucketName ${b64('avatars')},objectName ${b64('big.png')},contentType ${b64('image/png')}`,
      },
    })
    expect(tooBig.status).toBe(413)
    const badType = await fetch(endpoint, {
      method: 'POST',
      headers: {
        ...auth(),
        'tus-resumable': '1.0.0',
        'upload-length': '10',
        'upload-metadata': `bucketName ${b64('avatars')},objectName ${b64('a.pdf')},contentType ${b64('application/pdf')}`,
      },
    })
    expect(badType.status).toBe(415)
    expect(await badType.text()).toBe('mime type application/pdf is not supported')
    const noBucket = await create(`${alice.id}/y`, 10, {
      'upload-metadata': `bucketName ${b64('ghost')},objectName ${b64('y')}`,
    })
    expect(noBucket.status).toBe(404)
    expect(await noBucket.text()).toBe('Bucket not found')
    expect(readdirSync(`${stack.dataDir}/storage/tus`)).toEqual([])
  })

  it('refuses another user’s PATCH, honours x-upsert and DELETE', async () => {
    const name = `${alice.id}/twice.txt`
    await alice.client.storage.from('private').upload(name, 'old')
    const dup = await create(name, 3)
    expect(dup.status).toBe(409)
    const created = await create(name, 3, { 'x-upsert': 'true' })
    const location = created.headers.get('location')!
    const bob = await makeUser(stack)
    const intruder = await fetch(location, {
      method: 'PATCH',
      headers: {
        authorization: `Bearer ${bob.jwt}`,
        'tus-resumable': '1.0.0',
        'upload-offset': '0',
        'content-type': 'application/offset+octet-stream',
      },
      body: 'bad',
    })
    expect(intruder.status).toBe(403)
    const done = await fetch(location, {
      method: 'PATCH',
      headers: {
        ...auth(),
        'tus-resumable': '1.0.0',
        'upload-offset': '0',
        'content-type': 'application/offset+octet-stream',
      },
      body: 'new',
    })
    expect(done.status).toBe(204)
    expect(await (await alice.client.storage.from('private').download(name)).data!.text()).toBe(
      'new',
    )

    const dropped = await create(`${alice.id}/dropped.bin`, 10)
    const url = dropped.headers.get('location')!
    expect(
      (await fetch(url, { method: 'DELETE', headers: { ...auth(), 'tus-resumable': '1.0.0' } }))
        .status,
    ).toBe(204)
    expect((await fetch(url, { method: 'HEAD', headers: auth() })).status).toBe(404)
  })
})
