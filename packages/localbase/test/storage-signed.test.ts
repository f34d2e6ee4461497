import { decodeJwt } from 'jose'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestStack, type TestStack } from './helpers.ts'
import { makeUser, type TestUser } from './fixtures/storage/users.ts'

describe('storage signed URLs', () => {
  let stack: TestStack
  let alice: TestUser
  beforeAll(async () => {
    stack = await startTestStack('storage')
    alice = await makeUser(stack)
    await alice.client.storage.from('private').upload(`${alice.id}/report.txt`, 'quarterly')
  }, 180_000)
  afterAll(() => stack?.stop())
  const files = () => alice.client.storage.from('private')

  it('signs a download URL that works without credentials', async () => {
    const path = `${alice.id}/report.txt`
    const { data, error } = await files().createSignedUrl(path, 60)
    expect(error).toBeNull()
    expect(
      data!.signedUrl.startsWith(`${stack.url}/storage/v1/object/sign/private/${path}?token=`),
    ).toBe(true)
    const token = new URL(data!.signedUrl).searchParams.get('token')!
    const claims = decodeJwt(token)
    expect(claims).toMatchObject({ url: `private/${path}`, scope: 'download' })
    expect(claims.exp! - claims.iat!).toBe(60)
    const res = await fetch(data!.signedUrl)
    expect(res.status).toBe(200)
    expect(await res.text()).toBe('quarterly')
  })

  it('adds Content-Disposition when asked to download', async () => {
    const { data } = await files().createSignedUrl(`${alice.id}/report.txt`, 60, {
      download: 'q.txt',
    })
    const res = await fetch(data!.signedUrl)
    expect(res.headers.get('content-disposition')).toContain('filename=q.txt')
  })

  it('signs in bulk, with an error for each path it cannot sign', async () => {
    const { data, error } = await files().createSignedUrls(
      [`${alice.id}/report.txt`, `${alice.id}/none.txt`],
      60,
    )
    expect(error).toBeNull()
    expect(data![0]).toMatchObject({ error: null, path: `${alice.id}/report.txt` })
    expect(await (await fetch(data![0]!.signedUrl!)).text()).toBe('quarterly')
    expect(data![1]).toMatchObject({ signedUrl: null, path: `${alice.id}/none.txt` })
  })

  it('refuses expired, tampered and misplaced tokens', async () => {
    const path = `${alice.id}/report.txt`
    const { data } = await files().createSignedUrl(path, 1)
    await new Promise((r) => setTimeout(r, 2100))
    const expired = await fetch(data!.signedUrl)
    expect(expired.status).toBe(400)
    expect(await expired.json()).toEqual({
      statusCode: '400',
      code: 'InvalidJWT',
      error: 'InvalidJWT',
      message: 'jwt expired',
    })
    const fresh = (await files().createSignedUrl(path, 60)).data!.signedUrl
    const tampered = await fetch(fresh.slice(0, -2) + 'xx')
    expect((await tampered.json()).code).toBe('InvalidJWT')
    const elsewhere = fresh.replace('/report.txt?', '/other.txt?')
    expect((await (await fetch(elsewhere)).json()).code).toBe('InvalidSignature')
    const missing = await fetch(fresh.split('?')[0]!)
    expect((await missing.json()).code).toBe('MissingParameter')
    const badExpiry = await files().createSignedUrl(path, 0)
    expect(badExpiry.error).toMatchObject({ status: 400 })
  })

  it('signs an upload URL that writes once as the signer', async () => {
    const path = `${alice.id}/uploaded.txt`
    const signed = await files().createSignedUploadUrl(path)
    expect(signed.error).toBeNull()
    expect(decodeJwt(signed.data!.token)).toMatchObject({
      url: `private/${path}`,
      scope: 'upload',
      upsert: false,
      owner: alice.id,
    })
    const anon = stack.client().storage.from('private')
    const up = await anon.uploadToSignedUrl(path, signed.data!.token, 'signed bytes')
    expect(up.error).toBeNull()
    expect(up.data).toMatchObject({ path, fullPath: `private/${path}` })
    expect(await (await files().download(path)).data!.text()).toBe('signed bytes')
    const { rows } = await stack.db.pg.query(
      `select owner_id from storage.objects where name = $1`,
      [path],
    )
    expect(rows).toEqual([{ owner_id: alice.id }])
    const again = await anon.uploadToSignedUrl(path, signed.data!.token, 'again')
    expect(again.error).toMatchObject({ statusCode: '409' })
  })

  it('keeps download tokens and upload tokens apart', async () => {
    const path = `${alice.id}/report.txt`
    const download = (await files().createSignedUrl(path, 60)).data!.signedUrl
    const token = new URL(download).searchParams.get('token')!
    const res = await fetch(
      `${stack.url}/storage/v1/object/upload/sign/private/${path}?token=${token}`,
      {
        method: 'PUT',
        body: 'overwrite',
      },
    )
    expect(res.status).toBe(400)
    expect((await res.json()).code).toBe('InvalidSignature')
    expect(await (await files().download(path)).data!.text()).toBe('quarterly')
  })
})
