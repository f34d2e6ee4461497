import { readdirSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestStack, type TestStack } from './helpers.ts'
import { makeUser, type TestUser } from './fixtures/storage/users.ts'

// The fixture's policy: in bucket `private`, (storage.foldername(name))[1] = auth.uid()::text.
describe('storage RLS', () => {
  let stack: TestStack
  let alice: TestUser
  let bob: TestUser
  let secret: string
  beforeAll(async () => {
    stack = await startTestStack('storage')
    alice = await makeUser(stack)
    bob = await makeUser(stack)
    secret = `${alice.id}/secret.txt`
    const up = await alice.client.storage.from('private').upload(secret, 'alice only')
    expect(up.error).toBeNull()
  }, 180_000)
  afterAll(() => stack?.stop())
  const mine = (u: TestUser) => u.client.storage.from('private')
  const rowCount = async () =>
    (await stack.db.pg.query<{ n: number }>(`select count(*)::int as n from storage.objects`))
      .rows[0]!.n

  it('records owner and owner_id from the JWT sub', async () => {
    const { rows } = await stack.db.pg.query(
      `select owner::text, owner_id from storage.objects where name = $1`,
      [secret],
    )
    expect(rows).toEqual([{ owner: alice.id, owner_id: alice.id }])
  })

  it('lets a user read, list, sign and overwrite their own objects', async () => {
    expect(await (await mine(alice).download(secret)).data!.text()).toBe('alice only')
    expect((await mine(alice).list(alice.id)).data!.map((e) => e.name)).toEqual(['secret.txt'])
    expect((await mine(alice).createSignedUrl(secret, 60)).error).toBeNull()
    const own = `${alice.id}/mine.txt`
    expect((await mine(alice).upload(own, 'v1')).error).toBeNull()
    expect((await mine(alice).upload(own, 'v2', { upsert: true })).error).toBeNull()
    expect(await (await mine(alice).download(own)).data!.text()).toBe('v2')
    expect((await mine(alice).remove([own])).data).toHaveLength(1)
  })

  it('hides another user’s object from download, info, list and signing', async () => {
    const down = await mine(bob).download(secret)
    expect(down.error).toMatchObject({ status: 400 })
    const raw = await fetch(`${stack.url}/storage/v1/object/private/${secret}`, {
      headers: { authorization: `Bearer ${bob.jwt}`, apikey: stack.config.keys.anonKey },
    })
    expect(raw.status).toBe(400)
    expect((await raw.json()).code).toBe('NoSuchKey')
    expect((await mine(bob).exists(secret)).data).toBe(false)
    expect((await mine(bob).list(alice.id)).data).toEqual([])
    expect((await mine(bob).list()).data).toEqual([])
    expect((await mine(bob).createSignedUrl(secret, 60)).error).toMatchObject({
      statusCode: '404',
    })
    const bulk = await mine(bob).createSignedUrls([secret], 60)
    expect(bulk.data![0]).toMatchObject({ signedUrl: null, path: secret })
    expect(bulk.data![0]!.error).toMatch(/does not exist or you do not have access/)
  })

  it('refuses to let another user write, overwrite, move or delete it', async () => {
    const before = await rowCount()
    const write = await mine(bob).upload(`${alice.id}/planted.txt`, 'x')
    expect(write.error).toMatchObject({
      status: 400,
      statusCode: '403',
      message: 'new row violates row-level security policy',
    })
    const overwrite = await mine(bob).upload(secret, 'pwned', { upsert: true })
    expect(overwrite.error).toMatchObject({ statusCode: '403' })
    const update = await mine(bob).update(secret, 'pwned')
    expect(update.error).toMatchObject({ statusCode: '403' })
    const move = await mine(bob).move(secret, `${bob.id}/stolen.txt`)
    expect(move.error).toMatchObject({ statusCode: '404' })
    const copy = await mine(bob).copy(secret, `${bob.id}/stolen.txt`)
    expect(copy.error).toMatchObject({ statusCode: '404' })
    expect((await mine(bob).remove([secret])).data).toEqual([])
    const single = await fetch(`${stack.url}/storage/v1/object/private/${secret}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${bob.jwt}`, apikey: stack.config.keys.anonKey },
    })
    expect((await single.json()).code).toBe('NoSuchKey')
    const signUpload = await mine(bob).createSignedUploadUrl(`${alice.id}/via-sign.txt`)
    expect(signUpload.error).toMatchObject({ statusCode: '403' })

    expect(await rowCount()).toBe(before)
    expect(await (await mine(alice).download(secret)).data!.text()).toBe('alice only')
    expect(readdirSync(`${stack.dataDir}/storage/tmp`)).toEqual([])
  })

  it('checks RLS before reading the body', async () => {
    let pulled = 0
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled++
        if (pulled > 200) return controller.close()
        controller.enqueue(new Uint8Array(64 * 1024))
      },
    })
    const res = await fetch(`${stack.url}/storage/v1/object/private/${alice.id}/big.bin`, {
      method: 'POST',
      headers: { authorization: `Bearer ${bob.jwt}`, 'content-type': 'application/octet-stream' },
      body,
      duplex: 'half',
    } as RequestInit).catch(() => null)
    if (res) expect((await res.json()).statusCode).toBe('403')
    expect(pulled).toBeLessThan(200)
  })

  it('gives anon nothing in the private bucket', async () => {
    const anon = stack.client().storage.from('private')
    expect((await anon.upload('x.txt', 'x')).error).toMatchObject({ statusCode: '403' })
    expect((await anon.download(secret)).error).not.toBeNull()
    expect((await anon.list(alice.id)).data).toEqual([])
  })

  it('lets service_role bypass RLS', async () => {
    const admin = stack.admin().storage.from('private')
    expect(await (await admin.download(secret)).data!.text()).toBe('alice only')
    expect((await admin.upload(`${bob.id}/from-admin.txt`, 'x')).error).toBeNull()
    expect((await mine(bob).list(bob.id)).data!.map((e) => e.name)).toEqual(['from-admin.txt'])
  })

  it('serves public buckets to anyone at /object/public, and nothing else there', async () => {
    await alice.client.storage
      .from('avatars')
      .upload('face.png', 'png', { contentType: 'image/png' })
    const url = stack.client().storage.from('avatars').getPublicUrl('face.png').data.publicUrl
    const res = await fetch(url)
    expect(res.status).toBe(200)
    expect(await res.text()).toBe('png')
    const privateUrl = stack.client().storage.from('private').getPublicUrl(secret).data.publicUrl
    const refused = await fetch(privateUrl)
    expect(refused.status).toBe(400)
    expect((await refused.json()).statusCode).toBe('404')
    const download = await fetch(
      stack.client().storage.from('avatars').getPublicUrl('face.png', { download: 'me.png' }).data
        .publicUrl,
    )
    expect(download.headers.get('content-disposition')).toContain('filename=me.png')
    const transformed = stack
      .client()
      .storage.from('avatars')
      .getPublicUrl('face.png', {
        transform: { width: 10 },
      }).data.publicUrl
    expect(await (await fetch(transformed)).text()).toBe('png')
    const viaJs = await alice.client.storage
      .from('avatars')
      .download('face.png', { transform: { width: 10 } })
    expect(await viaJs.data!.text()).toBe('png')
    const info = await fetch(`${stack.url}/storage/v1/object/info/public/avatars/face.png`)
    expect(await info.json()).toMatchObject({
      name: 'face.png',
      size: 3,
      content_type: 'image/png',
    })
    const hidden = await fetch(`${stack.url}/storage/v1/object/info/public/private/${secret}`)
    expect((await hidden.json()).code).toBe('NoSuchKey')
  })

  it('sets storage.operation so policies can tell operations apart', async () => {
    const audited = alice.client.storage.from('audited')
    expect((await audited.upload('direct.txt', 'x')).error).toBeNull()
    const viaSign = await audited.createSignedUploadUrl('signed.txt')
    expect(viaSign.error).toMatchObject({ statusCode: '403' })
  })
})
