import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestStack, type TestStack } from './helpers.ts'
import { makeUser } from './fixtures/storage/users.ts'

describe('storage buckets', () => {
  let stack: TestStack
  beforeAll(async () => {
    stack = await startTestStack('storage')
  }, 180_000)
  afterAll(() => stack?.stop())

  it('creates the buckets declared in config.toml', async () => {
    const { data, error } = await stack.admin().storage.getBucket('avatars')
    expect(error).toBeNull()
    expect(data).toMatchObject({
      id: 'avatars',
      name: 'avatars',
      public: true,
      file_size_limit: 1024 * 1024,
      allowed_mime_types: ['image/*', 'text/plain'],
    })
    expect(data).not.toHaveProperty('type')
    const listed = await stack.admin().storage.listBuckets({ search: 'avatars' })
    expect(listed.data![0]).toMatchObject({ id: 'avatars', type: 'STANDARD' })
    expect(data!.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/)
  })

  it('creates, gets, updates and deletes a bucket', async () => {
    const storage = stack.admin().storage
    const created = await storage.createBucket('reports', {
      public: false,
      fileSizeLimit: '2MB',
      allowedMimeTypes: ['application/pdf'],
    })
    expect(created).toEqual({ data: { name: 'reports' }, error: null })

    const got = await storage.getBucket('reports')
    expect(got.data).toMatchObject({ public: false, file_size_limit: 2_000_000 })

    const updated = await storage.updateBucket('reports', { public: true, fileSizeLimit: 1000 })
    expect(updated).toEqual({ data: { message: 'Successfully updated' }, error: null })
    expect((await storage.getBucket('reports')).data).toMatchObject({
      public: true,
      file_size_limit: 1000,
      allowed_mime_types: ['application/pdf'],
    })

    expect(await storage.deleteBucket('reports')).toEqual({
      data: { message: 'Successfully deleted' },
      error: null,
    })
    const gone = await storage.getBucket('reports')
    expect(gone.error).toMatchObject({
      status: 400,
      statusCode: '404',
      message: 'Bucket not found',
    })
  })

  it('answers a duplicate bucket with 409 Duplicate in a 400', async () => {
    const storage = stack.admin().storage
    await storage.createBucket('dupe')
    const res = await fetch(`${stack.url}/storage/v1/bucket`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${stack.config.keys.serviceRoleKey}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify({ id: 'dupe', name: 'dupe' }),
    })
    expect(res.status).toBe(400)
    expect(await res.json()).toEqual({
      statusCode: '409',
      code: 'BucketAlreadyExists',
      error: 'Duplicate',
      message: 'The resource already exists',
    })
  })

  it('rejects bad bucket names, sizes and bodies with 400s', async () => {
    const storage = stack.admin().storage
    const badName = await storage.createBucket('no/slash')
    expect(badName.error).toMatchObject({
      status: 400,
      statusCode: '400',
      message: 'Bucket name invalid',
    })
    const badSize = await storage.createBucket('sized', { public: false, fileSizeLimit: 'huge' })
    expect(badSize.error?.message).toMatch(/Invalid file size format/)
    const tooBig = await storage.createBucket('toobig', { public: false, fileSizeLimit: '1GB' })
    expect(tooBig.error).toMatchObject({ statusCode: '413' })
    const res = await fetch(`${stack.url}/storage/v1/bucket`, {
      method: 'POST',
      headers: { authorization: `Bearer ${stack.config.keys.serviceRoleKey}` },
      body: '{not json',
    })
    expect(res.status).toBe(400)
    expect((await res.json()).code).toBe('InvalidRequest')
    expect((await storage.getBucket('sized')).error).not.toBeNull()
  })

  it('lists buckets with search, sort, limit and offset', async () => {
    const storage = stack.admin().storage
    for (const id of ['list-a', 'list-b', 'list-c']) await storage.createBucket(id)
    const all = await storage.listBuckets({
      search: 'list-',
      sortColumn: 'name',
      sortOrder: 'desc',
    })
    expect(all.data!.map((b) => b.id)).toEqual(['list-c', 'list-b', 'list-a'])
    const page = await storage.listBuckets({
      search: 'list-',
      sortColumn: 'name',
      limit: 1,
      offset: 1,
    })
    expect(page.data!.map((b) => b.id)).toEqual(['list-b'])
    const everything = await storage.listBuckets()
    expect(everything.data!.map((b) => b.id)).toEqual(
      expect.arrayContaining(['avatars', 'private']),
    )
  })

  it('refuses to delete a non-empty bucket, and empties it', async () => {
    const storage = stack.admin().storage
    await storage.createBucket('full')
    await storage.from('full').upload('a/one.txt', 'one')
    await storage.from('full').upload('two.txt', 'two')
    const refused = await storage.deleteBucket('full')
    expect(refused.error).toMatchObject({
      status: 400,
      statusCode: '409',
      message: 'The bucket you tried to delete is not empty',
    })
    expect(await storage.emptyBucket('full')).toEqual({
      data: { message: 'Empty bucket has been queued. Completion may take up to an hour.' },
      error: null,
    })
    expect((await storage.from('full').list()).data).toEqual([])
    expect((await storage.deleteBucket('full')).error).toBeNull()
  })

  it('applies RLS on storage.buckets: anon sees none and cannot create', async () => {
    const anon = stack.client().storage
    expect((await anon.listBuckets()).data).toEqual([])
    expect((await anon.getBucket('avatars')).error).toMatchObject({ statusCode: '404' })
    const created = await anon.createBucket('sneaky')
    expect(created.error).toMatchObject({
      status: 400,
      statusCode: '403',
      message: 'new row violates row-level security policy',
    })
    const user = await makeUser(stack)
    const seen = await user.client.storage.listBuckets()
    expect(seen.data!.map((b) => b.id)).toEqual(expect.arrayContaining(['avatars', 'private']))
    expect((await user.client.storage.deleteBucket('avatars')).error).toMatchObject({
      statusCode: '404',
    })
  })

  it('maps the new sb_ keys to their roles', async () => {
    const secret = stack.client(stack.config.keys.secretKey).storage
    expect((await secret.listBuckets()).data!.length).toBeGreaterThan(0)
    const publishable = stack.client(stack.config.keys.publishableKey).storage
    expect((await publishable.listBuckets()).data).toEqual([])
    const wrong = await fetch(`${stack.url}/storage/v1/bucket`, {
      headers: { apikey: 'sb_secret_wrong', authorization: 'Bearer sb_secret_wrong' },
    })
    expect(wrong.status).toBe(401)
    expect(await wrong.json()).toMatchObject({ message: 'Unregistered API key' })
  })

  it('refuses a bad token with AccessDenied', async () => {
    const res = await fetch(`${stack.url}/storage/v1/bucket`, {
      headers: { authorization: 'Bearer not.a.jwt', apikey: stack.config.keys.anonKey },
    })
    expect(res.status).toBe(400)
    expect(await res.json()).toMatchObject({ statusCode: '403', code: 'AccessDenied' })
  })

  it('refuses a request with no credentials at all, and a token that is not a JWT', async () => {
    const none = await fetch(`${stack.url}/storage/v1/bucket`)
    expect(none.status).toBe(400)
    expect(await none.json()).toEqual({
      statusCode: '403',
      code: 'AccessDenied',
      error: 'Unauthorized',
      message: 'Invalid Compact JWS',
    })
    const opaque = await fetch(`${stack.url}/storage/v1/bucket`, {
      headers: { authorization: 'Bearer abc', apikey: stack.config.keys.anonKey },
    })
    expect(await opaque.json()).toMatchObject({ message: 'Invalid Compact JWS' })
  })
})
