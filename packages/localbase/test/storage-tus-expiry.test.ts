import { readdirSync } from 'node:fs'
import * as tus from 'tus-js-client'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { makeUser, type TestUser } from './fixtures/storage/users.ts'
import { startTestStack, type TestStack } from './helpers.ts'

const b64 = (s: string) => Buffer.from(s).toString('base64')
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** Hosted: 24 hours. Short here, through the same setting, so that expiry can be waited for. */
const EXPIRY_MS = 2000

describe('storage TUS uploads left unfinished', () => {
  let stack: TestStack
  let alice: TestUser
  let endpoint: string
  beforeAll(async () => {
    stack = await startTestStack('storage', { env: { TUS_URL_EXPIRY_MS: String(EXPIRY_MS) } })
    alice = await makeUser(stack)
    endpoint = `${stack.url}/storage/v1/upload/resumable`
  }, 180_000)
  afterAll(() => stack?.stop())

  const auth = () => ({
    authorization: `Bearer ${alice.jwt}`,
    apikey: stack.config.keys.anonKey,
    'tus-resumable': '1.0.0',
  })
  const tusFiles = () => readdirSync(`${stack.dataDir}/storage/tus`).sort()

  /** Creates an upload of 10 bytes and sends the first 4: a partial file on disk. */
  async function halfUpload(name: string) {
    const created = await fetch(endpoint, {
      method: 'POST',
      headers: {
        ...auth(),
        'upload-length': '10',
        'upload-metadata': `bucketName ${b64('private')},objectName ${b64(`${alice.id}/${name}`)}`,
      },
    })
    expect(created.status).toBe(201)
    const location = created.headers.get('location')!
    const patched = await fetch(location, {
      method: 'PATCH',
      headers: {
        ...auth(),
        'upload-offset': '0',
        'content-type': 'application/offset+octet-stream',
      },
      body: 'half',
    })
    expect(patched.status).toBe(204)
    return { location, id: location.split('/').pop()!, created, patched }
  }

  it('says when an upload expires, and answers 410 once it has, its partial file gone', async () => {
    const before = Date.now()
    const { location, id, created, patched } = await halfUpload('expires.bin')
    // The tus expiration extension's header, an HTTP date: counted from the creation.
    for (const response of [created, patched]) {
      const expires = Date.parse(response.headers.get('upload-expires')!)
      expect(expires).toBeGreaterThanOrEqual(Math.floor((before + EXPIRY_MS) / 1000) * 1000)
      expect(expires).toBeLessThanOrEqual(Date.now() + EXPIRY_MS)
    }
    expect(tusFiles()).toEqual([`${id}.json`, `${id}.part`])

    await sleep(EXPIRY_MS + 100)
    const late = await fetch(location, {
      method: 'PATCH',
      headers: {
        ...auth(),
        'upload-offset': '4',
        'content-type': 'application/offset+octet-stream',
      },
      body: 'rest!!',
    })
    // As Storage's tus server answers an expired upload: 410, the reason as plain text.
    expect(late.status).toBe(410)
    expect(late.headers.get('tus-resumable')).toBe('1.0.0')
    expect(await late.text()).toBe('The file for this url no longer exists')
    expect((await fetch(location, { method: 'HEAD', headers: auth() })).status).toBe(410)
    expect(
      (await alice.client.storage.from('private').exists(`${alice.id}/expires.bin`)).data,
    ).toBe(false)

    // Nobody need ask again: the sweep (every EXPIRY_MS here, at most every 10 minutes) deletes
    // it within two, and then it is an upload that does not exist.
    await expect.poll(tusFiles, { timeout: 3 * EXPIRY_MS, interval: 100 }).toEqual([])
    expect((await fetch(location, { method: 'HEAD', headers: auth() })).status).toBe(404)
  })

  it('still finishes an upload resumed before it expires', async () => {
    const { location } = await halfUpload('in-time.bin')
    const rest = await fetch(location, {
      method: 'PATCH',
      headers: {
        ...auth(),
        'upload-offset': '4',
        'content-type': 'application/offset+octet-stream',
      },
      body: ' done!',
    })
    expect(rest.status).toBe(204)
    // Complete: nothing left to expire, so no Upload-Expires.
    expect(rest.headers.get('upload-expires')).toBeNull()
    const stored = await alice.client.storage.from('private').download(`${alice.id}/in-time.bin`)
    expect(await stored.data!.text()).toBe('half done!')
    expect(tusFiles()).toEqual([])
  })
  it('lets tus-js-client, resuming an expired upload, start a new one that completes', async () => {
    const { location } = await halfUpload('again.bin')
    await sleep(EXPIRY_MS + 100)
    const methods: string[] = []
    await new Promise<void>((resolve, reject) => {
      const upload = new tus.Upload(Buffer.from('whole file'), {
        endpoint,
        uploadUrl: location,
        retryDelays: [],
        headers: auth(),
        metadata: { bucketName: 'private', objectName: `${alice.id}/again.bin` },
        onBeforeRequest: (request) => void methods.push(request.getMethod()),
        onSuccess: () => resolve(),
        onError: reject,
      })
      upload.start()
    })
    // Its HEAD answered 410, so it made a new upload and sent the file whole.
    expect(methods).toEqual(['HEAD', 'POST', 'PATCH'])
    const stored = await alice.client.storage.from('private').download(`${alice.id}/again.bin`)
    expect(await stored.data!.text()).toBe('whole file')
  })
})
