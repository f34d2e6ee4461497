import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestStack, type TestStack } from './helpers.ts'

describe('storage objects', () => {
  let stack: TestStack
  const auth = () => ({ authorization: `Bearer ${stack.config.keys.serviceRoleKey}` })
  beforeAll(async () => {
    stack = await startTestStack('storage')
    await stack.admin().storage.createBucket('files')
  }, 180_000)
  afterAll(() => stack?.stop())
  const files = () => stack.admin().storage.from('files')

  it('uploads a raw body and downloads it with its headers', async () => {
    const up = await files().upload('docs/hello.txt', 'hello world', { contentType: 'text/plain' })
    expect(up.error).toBeNull()
    expect(up.data).toMatchObject({ path: 'docs/hello.txt', fullPath: 'files/docs/hello.txt' })
    expect(up.data!.id).toMatch(/^[0-9a-f-]{36}$/)

    const down = await files().download('docs/hello.txt')
    expect(await down.data!.text()).toBe('hello world')

    const res = await fetch(`${stack.url}/storage/v1/object/files/docs/hello.txt`, {
      headers: auth(),
    })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('text/plain')
    expect(res.headers.get('content-length')).toBe('11')
    expect(res.headers.get('cache-control')).toBe('max-age=3600')
    expect(res.headers.get('etag')).toBe('"5eb63bbbe01eeed093cb22bb8f5acdc3"')
    expect(new Date(res.headers.get('last-modified')!).getTime()).toBeGreaterThan(0)
    const again = await fetch(`${stack.url}/storage/v1/object/files/docs/hello.txt`, {
      headers: { ...auth(), 'if-none-match': res.headers.get('etag')! },
    })
    expect(again.status).toBe(304)
  })

  it('uploads a Blob as multipart with the file under an empty field name', async () => {
    const blob = new Blob([new Uint8Array([1, 2, 3, 4])], { type: 'application/x-thing' })
    const up = await files().upload('bin/blob.bin', blob, {
      cacheControl: '60',
      metadata: { origin: 'test' },
    })
    expect(up.error).toBeNull()
    const info = await files().info('bin/blob.bin')
    expect(info.data).toMatchObject({
      name: 'bin/blob.bin',
      bucketId: 'files',
      size: 4,
      contentType: 'application/x-thing',
      cacheControl: 'max-age=60',
      metadata: { origin: 'test' },
    })
    const bytes = new Uint8Array(await (await files().download('bin/blob.bin')).data!.arrayBuffer())
    expect([...bytes]).toEqual([1, 2, 3, 4])
  })

  it('keeps x-metadata from raw uploads', async () => {
    await files().upload('meta.txt', 'm', { metadata: { a: 1 } })
    expect((await files().info('meta.txt')).data?.metadata).toEqual({ a: 1 })
    expect((await files().info('docs/hello.txt')).data?.metadata).toEqual({})
  })

  it('refuses a duplicate upload unless upsert, and update overwrites', async () => {
    await files().upload('dup.txt', 'first')
    const dup = await files().upload('dup.txt', 'second')
    expect(dup.error).toMatchObject({
      status: 400,
      statusCode: '409',
      message: 'The resource already exists',
    })
    expect(await (await files().download('dup.txt')).data!.text()).toBe('first')
    expect((await files().upload('dup.txt', 'third', { upsert: true })).error).toBeNull()
    expect(await (await files().download('dup.txt')).data!.text()).toBe('third')
    expect((await files().update('dup.txt', 'fourth')).error).toBeNull()
    expect(await (await files().download('dup.txt')).data!.text()).toBe('fourth')
    // The replaced versions' bytes are gone from disk: one file per object.
    const { rows } = await stack.db.pg.query<{ n: number }>(
      `select count(*)::int as n from storage.objects`,
    )
    const { readdirSync } = await import('node:fs')
    expect(readdirSync(`${stack.dataDir}/storage/objects`).length).toBe(rows[0]!.n)
  })

  it('answers missing objects and buckets as storage does', async () => {
    const missing = await fetch(`${stack.url}/storage/v1/object/files/nope.txt`, {
      headers: auth(),
    })
    expect(missing.status).toBe(400)
    expect(await missing.json()).toEqual({
      statusCode: '404',
      code: 'NoSuchKey',
      error: 'not_found',
      message: 'Object not found',
    })
    expect((await files().exists('nope.txt')).data).toBe(false)
    expect((await files().exists('meta.txt')).data).toBe(true)
    const head = await fetch(`${stack.url}/storage/v1/object/files/meta.txt`, {
      method: 'HEAD',
      headers: auth(),
    })
    expect(head.status).toBe(200)
    expect(head.headers.get('content-length')).toBe('1')
    const noBucket = await stack.admin().storage.from('ghost').upload('a.txt', 'x')
    expect(noBucket.error).toMatchObject({ statusCode: '404', message: 'Bucket not found' })
  })

  it('sets Content-Disposition for ?download and serves byte ranges', async () => {
    await files().upload('range.txt', '0123456789')
    const url = `${stack.url}/storage/v1/object/files/range.txt`
    const attach = await fetch(`${url}?download=`, { headers: auth() })
    expect(attach.headers.get('content-disposition')).toBe('attachment;')
    const named = await fetch(`${url}?download=my%20file.txt`, { headers: auth() })
    expect(named.headers.get('content-disposition')).toBe(
      "attachment; filename=my%20file.txt; filename*=UTF-8''my%20file.txt",
    )
    const part = await fetch(url, { headers: { ...auth(), range: 'bytes=2-5' } })
    expect(part.status).toBe(206)
    expect(part.headers.get('content-range')).toBe('bytes 2-5/10')
    expect(await part.text()).toBe('2345')
    const tail = await fetch(url, { headers: { ...auth(), range: 'bytes=-3' } })
    expect(await tail.text()).toBe('789')
    const beyond = await fetch(url, { headers: { ...auth(), range: 'bytes=20-' } })
    expect(beyond.status).toBe(416)
    const bad = await fetch(url, { headers: { ...auth(), range: 'lines=1' } })
    expect(bad.status).toBe(400)
    expect((await bad.json()).code).toBe('InvalidRange')
  })

  it('finishes a download whose version is replaced meanwhile', async () => {
    const old = new Uint8Array(8 * 1024 * 1024).fill(1)
    await files().upload('swap.bin', old)
    const res = await fetch(`${stack.url}/storage/v1/object/files/swap.bin`, { headers: auth() })
    expect(res.status).toBe(200)
    expect((await files().upload('swap.bin', 'new', { upsert: true })).error).toBeNull()
    const body = new Uint8Array(await res.arrayBuffer())
    expect(body.length).toBe(old.length)
    expect(body.every((b) => b === 1)).toBe(true)
    expect(await (await files().download('swap.bin')).data!.text()).toBe('new')
  })

  it('lists one folder level with folders as id:null rows', async () => {
    const storage = stack.admin().storage
    await storage.createBucket('tree')
    const tree = storage.from('tree')
    for (const name of ['b.txt', 'a.txt', 'sub/c.txt', 'sub/deep/d.txt', 'other/e.txt', 'Z.txt']) {
      await tree.upload(name, name)
    }
    const top = await tree.list()
    expect(top.error).toBeNull()
    expect(top.data!.map((e) => [e.name, e.id === null])).toEqual([
      ['a.txt', false],
      ['b.txt', false],
      ['other', true],
      ['sub', true],
      ['Z.txt', false],
    ])
    const folder = top.data!.find((e) => e.name === 'sub')!
    expect(folder).toEqual({
      name: 'sub',
      id: null,
      updated_at: null,
      created_at: null,
      last_accessed_at: null,
      metadata: null,
    })
    const file = top.data!.find((e) => e.name === 'a.txt')!
    expect(file.metadata).toMatchObject({ size: 5, mimetype: 'text/plain;charset=UTF-8' })
    const sub = await tree.list('sub')
    expect(sub.data!.map((e) => e.name)).toEqual(['c.txt', 'deep'])
    const paged = await tree.list('', {
      limit: 2,
      offset: 1,
      sortBy: { column: 'name', order: 'desc' },
    })
    expect(paged.data!.map((e) => e.name)).toEqual(['sub', 'other'])
    const searched = await tree.list('', { search: 'a' })
    expect(searched.data!.map((e) => e.name)).toEqual(['a.txt'])
    const percent = await tree.list('', { search: '%' })
    expect(percent.data).toEqual([])
  })

  it('lists v2 with folders, objects and a cursor', async () => {
    const tree = stack.admin().storage.from('tree')
    const all = await tree.listV2({ prefix: 'sub/' })
    expect(all.error).toBeNull()
    expect(all.data!.objects.map((o) => o.name)).toEqual(['sub/c.txt', 'sub/deep/d.txt'])
    expect(all.data!.hasNext).toBe(false)
    const folded = await tree.listV2({ with_delimiter: true, limit: 2 })
    expect(folded.data!.hasNext).toBe(true)
    expect(folded.data!.objects.map((o) => o.name)).toEqual(['Z.txt', 'a.txt'])
    const next = await tree.listV2({
      with_delimiter: true,
      limit: 2,
      cursor: folded.data!.nextCursor,
    })
    expect(next.data!.objects.map((o) => o.name)).toEqual(['b.txt'])
    expect(next.data!.folders).toEqual([{ name: 'other/', key: 'other' }])
    const last = await tree.listV2({
      with_delimiter: true,
      limit: 2,
      cursor: next.data!.nextCursor,
    })
    expect(last.data).toMatchObject({ hasNext: false, objects: [], folders: [{ name: 'sub/' }] })
  })

  it('pages list-v2 by created_at both ways, as storage-js’s own test does', async () => {
    await stack.admin().storage.createBucket('paged')
    const paged = stack.admin().storage.from('paged')
    const suffixes = ['zz', 'bb', 'xx', 'ww', 'cc', 'aa', 'yy', 'oo']
    for (const s of suffixes) await paged.upload(`p/f-${s}`, s)
    const cases = [
      { expected: [...suffixes].sort(), sortBy: undefined },
      { expected: [...suffixes].sort().reverse(), sortBy: { column: 'name', order: 'desc' } },
      { expected: [...suffixes], sortBy: { column: 'created_at', order: 'asc' } },
      { expected: [...suffixes].reverse(), sortBy: { column: 'created_at', order: 'desc' } },
    ] as const
    for (const { expected, sortBy } of cases) {
      const seen: string[] = []
      let cursor: string | undefined
      let pages = 0
      do {
        const res = await paged.listV2({
          prefix: 'p/',
          with_delimiter: true,
          limit: 2,
          ...(cursor ? { cursor } : {}),
          ...(sortBy ? { sortBy } : {}),
        })
        expect(res.error).toBeNull()
        seen.push(...res.data!.objects.map((o) => o.name.slice('p/f-'.length)))
        cursor = res.data!.hasNext ? res.data!.nextCursor : undefined
        pages++
      } while (cursor)
      expect(seen).toEqual(expected)
      expect(pages).toBe(4)
    }
  })

  it('moves and copies objects, within and across buckets', async () => {
    await files().upload('mv/src.txt', 'moving')
    const moved = await files().move('mv/src.txt', 'mv/dst.txt')
    expect(moved.error).toBeNull()
    expect(moved.data).toMatchObject({ message: 'Successfully moved', Key: 'mv/dst.txt' })
    expect((await files().download('mv/src.txt')).error).not.toBeNull()
    expect(await (await files().download('mv/dst.txt')).data!.text()).toBe('moving')

    const copied = await files().copy('mv/dst.txt', 'mv/copy.txt')
    expect(copied).toEqual({ data: { path: 'files/mv/copy.txt' }, error: null })
    expect(await (await files().download('mv/copy.txt')).data!.text()).toBe('moving')
    expect((await files().info('mv/copy.txt')).data?.contentType).toBe('text/plain;charset=UTF-8')

    await stack.admin().storage.createBucket('elsewhere')
    const across = await files().copy('mv/copy.txt', 'x.txt', { destinationBucket: 'elsewhere' })
    expect(across.error).toBeNull()
    const el = stack.admin().storage.from('elsewhere')
    expect(await (await el.download('x.txt')).data!.text()).toBe('moving')

    const clash = await files().move('mv/dst.txt', 'mv/copy.txt')
    expect(clash.error).toMatchObject({ statusCode: '409' })
    const gone = await files().move('mv/none.txt', 'mv/other.txt')
    expect(gone.error).toMatchObject({ statusCode: '404', message: 'Object not found' })
    const noBucket = await files().move('mv/dst.txt', 'x', { destinationBucket: 'ghost' })
    expect(noBucket.error).toMatchObject({ statusCode: '404', message: 'Bucket not found' })
  })

  it('removes objects in bulk, returning the deleted rows', async () => {
    await files().upload('rm/1.txt', '1')
    await files().upload('rm/2.txt', '2')
    const removed = await files().remove(['rm/1.txt', 'rm/2.txt', 'rm/missing.txt'])
    expect(removed.error).toBeNull()
    expect(removed.data!.map((o) => o.name).sort()).toEqual(['rm/1.txt', 'rm/2.txt'])
    expect(removed.data![0]).toMatchObject({ bucket_id: 'files', metadata: { size: 1 } })
    expect((await files().list('rm')).data).toEqual([])
    const bad = await fetch(`${stack.url}/storage/v1/object/files`, {
      method: 'DELETE',
      headers: { ...auth(), 'content-type': 'application/json' },
      body: JSON.stringify({ prefixes: 'rm/1.txt' }),
    })
    expect(bad.status).toBe(400)
    expect((await bad.json()).code).toBe('MissingParameter')
  })

  it('enforces file_size_limit and allowed_mime_types before storing anything', async () => {
    const avatars = stack.admin().storage.from('avatars')
    const big = await avatars.upload('big.png', new Uint8Array(1024 * 1024 + 1), {
      contentType: 'image/png',
    })
    expect(big.error).toMatchObject({
      status: 400,
      statusCode: '413',
      message: 'The object exceeded the maximum allowed size',
    })
    const pdf = await avatars.upload('doc.pdf', 'x', { contentType: 'application/pdf' })
    expect(pdf.error).toMatchObject({
      statusCode: '415',
      message: 'mime type application/pdf is not supported',
    })
    const blob = new Blob(['x'], { type: 'application/pdf' })
    const multipart = await avatars.upload('doc2.pdf', blob)
    expect(multipart.error).toMatchObject({ statusCode: '415' })
    expect((await avatars.upload('ok.png', 'x', { contentType: 'image/png' })).error).toBeNull()
    const { rows } = await stack.db.pg.query(
      `select name from storage.objects where bucket_id = 'avatars' order by name`,
    )
    expect(rows).toEqual([{ name: 'ok.png' }])
  })

  it('streams a body larger than the size limit without keeping any of it', async () => {
    await stack.admin().storage.createBucket('tiny', { public: false, fileSizeLimit: 100 })
    const chunks = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < 10; i++) controller.enqueue(new Uint8Array(50))
        controller.close()
      },
    })
    const res = await fetch(`${stack.url}/storage/v1/object/tiny/stream.bin`, {
      method: 'POST',
      headers: { ...auth(), 'content-type': 'application/octet-stream' },
      body: chunks,
      duplex: 'half',
    } as RequestInit)
    expect(res.status).toBe(400)
    expect((await res.json()).statusCode).toBe('413')
    const { readdirSync } = await import('node:fs')
    expect(readdirSync(`${stack.dataDir}/storage/tmp`)).toEqual([])
  })

  it('never answers malformed requests with a 500', async () => {
    const json = { ...auth(), 'content-type': 'application/json' }
    const requests: [string, string, BodyInit?][] = [
      ['GET', '/bucket/%00'],
      ['GET', '/bucket?limit=abc'],
      ['GET', '/bucket?sortColumn=owner'],
      ['PUT', '/bucket/files', '{"file_size_limit":-5}'],
      ['PUT', '/bucket/files', '{"allowed_mime_types":"image/png"}'],
      ['POST', '/bucket', '[1,2]'],
      ['POST', '/bucket', '{"name":7}'],
      ['POST', '/object/list/%00', '{}'],
      ['POST', '/object/list/files', '{"prefix":3}'],
      ['POST', '/object/list/files', '{"limit":-1}'],
      ['POST', '/object/list-v2/files', '{"cursor":"!!!"}'],
      ['POST', '/object/list-v2/files', '{"sortBy":{"column":"size"}}'],
      ['POST', '/object/sign/files', '{"expiresIn":60,"paths":["a\u0000b"]}'],
      ['POST', '/object/sign/files', '{"expiresIn":60}'],
      ['POST', '/object/sign/files/meta.txt', '{"expiresIn":"soon"}'],
      ['DELETE', '/object/files', '{"prefixes":["a\u0000b"]}'],
      ['DELETE', '/object/files', '{"prefixes":[]}'],
      ['POST', '/object/move', '{"bucketId":"a\u0000","sourceKey":"a","destinationKey":"b"}'],
      ['POST', '/object/copy', '{"bucketId":"files","sourceKey":"nope","destinationKey":"b"}'],
      ['GET', '/object/sign/files/meta.txt?token=abc'],
      ['PUT', '/object/upload/sign/files/x.txt?token=abc', 'x'],
      ['POST', '/upload/resumable'],
      ['HEAD', '/upload/resumable/not-an-id'],
      ['PATCH', '/upload/resumable/00000000-0000-0000-0000-000000000000', 'x'],
      ['GET', '/object/files'],
    ]
    for (const [method, path, body] of requests) {
      const res = await fetch(`${stack.url}/storage/v1${path}`, { method, headers: json, body })
      expect(`${method} ${path} ${res.status}`).toMatch(/ [234]\d\d$/)
    }
    const multipart = await fetch(`${stack.url}/storage/v1/object/files/broken.txt`, {
      method: 'POST',
      headers: { ...auth(), 'content-type': 'multipart/form-data; boundary=xyz' },
      body: '--xyz\r\nContent-Disposition: form-data; name="cacheControl"\r\n\r\n60\r\n--xyz--',
    })
    expect(multipart.status).toBe(400)
    expect((await multipart.json()).message).toBe('No content provided')
  })

  it('rejects bad keys and bodies with 400, never 500', async () => {
    for (const bad of ['a%00b.txt', '%E4%BD%A0.txt', 'a%5Cb.txt']) {
      const res = await fetch(`${stack.url}/storage/v1/object/files/${bad}`, {
        method: 'POST',
        headers: auth(),
        body: 'x',
      })
      expect(res.status).toBe(400)
      expect((await res.json()).code).toBe('InvalidKey')
    }
    expect((await files().upload("ok (1) & co's=@;:+,.txt", 'x')).error).toBeNull()
    const move = await fetch(`${stack.url}/storage/v1/object/move`, {
      method: 'POST',
      headers: { ...auth(), 'content-type': 'application/json' },
      body: JSON.stringify({ bucketId: 'files' }),
    })
    expect(move.status).toBe(400)
    expect((await move.json()).message).toBe('Missing Required Parameter sourceKey')
    const noPrefix = await fetch(`${stack.url}/storage/v1/object/list/files`, {
      method: 'POST',
      headers: { ...auth(), 'content-type': 'application/json' },
      body: JSON.stringify({ limit: 10 }),
    })
    expect(noPrefix.status).toBe(400)
    expect((await noPrefix.json()).message).toBe("body must have required property 'prefix'")
    const list = await fetch(`${stack.url}/storage/v1/object/list/files`, {
      method: 'POST',
      headers: { ...auth(), 'content-type': 'application/json' },
      body: JSON.stringify({ prefix: '', sortBy: { column: 'id; drop table x' } }),
    })
    expect(list.status).toBe(400)
  })
})
