import * as tus from 'tus-js-client'
import { afterEach, describe, expect, it } from 'vitest'
import { ingestFile } from '../../packages/core/src/ingest/ingest-file.ts'
import { uploadError } from '../../packages/core/src/ingest/upload-refused.ts'
import { DEFAULT_ANON_KEY } from '../../packages/localbase/src/index.ts'
import { startIngestWorld, textFile } from './ingest-helpers.ts'
import { clientFor, type User } from './stack.ts'
import { bytesOf, setQuota, storageState } from './storage-quota-helpers.ts'

const { stack, db, people, workspaceId, editor } = await startIngestWorld()
const files = (client = editor()) => client.storage.from('documents')
const pathIn = (workspace: string, name: string) => `${workspace}/${crypto.randomUUID()}/${name}`
const path = (name: string) => pathIn(workspaceId, name)
const full = (name: string) =>
  new RegExp(`^This workspace's storage is full: "${name}" needs .+, and .+ of its .+ are used\\.$`)

/** The library's figure, as `as` reads it (a viewer by default). */
async function usage(id = workspaceId, as: User = people.viewer) {
  const { data, error } = await clientFor(stack, as)
    .from('workspace_storage')
    .select('used_bytes, quota_bytes')
    .eq('workspace_id', id)
    .maybeSingle()
  if (error) throw error
  return data
}

/** The sizes Storage recorded for a workspace's objects, read as the database owner. */
async function stored(id = workspaceId) {
  return (await storageState(stack, id)).objects.reduce((n, o) => n + Number(o.size), 0)
}

async function upload(name: string, size: number, upsert = false) {
  const { error } = await files().upload(name, bytesOf(size), { upsert })
  if (error) throw error
}

/** A TUS upload as tus-js-client makes it: undefined when stored, else Storage's answer. */
function tusUpload(name: string, data: Uint8Array, upsert = false) {
  return new Promise<{ status: number | undefined; body: string | undefined } | undefined>(
    (resolve) => {
      new tus.Upload(Buffer.from(data), {
        endpoint: `${stack.url}/storage/v1/upload/resumable`,
        chunkSize: 64 * 1024,
        retryDelays: [],
        headers: {
          authorization: `Bearer ${people.editor.jwt}`,
          apikey: DEFAULT_ANON_KEY,
          'x-upsert': String(upsert),
        },
        metadata: { bucketName: 'documents', objectName: name, contentType: 'application/pdf' },
        onSuccess: () => resolve(undefined),
        onError: (error) => {
          const response = 'originalResponse' in error ? error.originalResponse : null
          resolve({ status: response?.getStatus(), body: response?.getBody() })
        },
      }).start()
    },
  )
}

afterEach(async () => {
  // Each test starts from an empty workspace with the default quota.
  const names = (await storageState(stack, workspaceId)).objects.map((o) => o.name)
  if (names.length) expect((await files().remove(names)).error).toBeNull()
  await setQuota(stack, workspaceId, 2 ** 30)
})

describe('the workspace quota, enforced by Storage on the bytes it stores', () => {
  it('a simple upload past the quota is refused with nothing left behind; up to it is stored', async () => {
    await setQuota(stack, workspaceId, 100_000)
    await upload(path('a.bin'), 60_000)
    const before = await storageState(stack, workspaceId)

    const refused = await files().upload(path('b.bin'), bytesOf(50_000))
    expect(refused.error).toMatchObject({
      statusCode: '403',
      message: expect.stringMatching(full('b.bin')),
    })
    expect(await storageState(stack, workspaceId)).toEqual(before)

    // On the wire as hosted Storage answers a trigger's 42501: AccessDenied with the message.
    const response = await fetch(`${stack.url}/storage/v1/object/documents/${path('c.bin')}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${people.editor.jwt}`, apikey: DEFAULT_ANON_KEY },
      body: bytesOf(50_000),
    })
    expect(response.status).toBe(400)
    expect(await response.json()).toEqual({
      statusCode: '403',
      code: 'AccessDenied',
      error: 'Unauthorized',
      message: expect.stringMatching(full('c.bin')),
    })
    expect(await storageState(stack, workspaceId)).toEqual(before)

    await upload(path('b.bin'), 40_000)
    expect(await usage()).toEqual({ used_bytes: 100_000, quota_bytes: 100_000 })
  })

  it('an upsert does not count the object it replaces twice, and shrinking always passes', async () => {
    await setQuota(stack, workspaceId, 100_000)
    const report = path('report.pdf')
    await upload(report, 60_000)
    await upload(report, 90_000, true)
    expect(await usage()).toMatchObject({ used_bytes: 90_000 })

    const before = await storageState(stack, workspaceId)
    const upsert = await files().upload(report, bytesOf(100_001), { upsert: true })
    expect(upsert.error).toMatchObject({
      statusCode: '403',
      message: expect.stringMatching(full('report.pdf')),
    })
    const update = await files().update(report, bytesOf(100_001))
    expect(update.error).toMatchObject({ statusCode: '403' })
    expect(await storageState(stack, workspaceId)).toEqual(before)

    // Over a lowered quota, a smaller version still goes in; a larger one does not.
    await setQuota(stack, workspaceId, 50_000)
    await upload(report, 80_000, true)
    expect(await usage()).toMatchObject({ used_bytes: 80_000 })
    expect((await files().update(report, bytesOf(80_001))).error).toMatchObject({
      statusCode: '403',
    })
  })

  it('a TUS upload is refused when it completes, leaving no row, no bytes, no upload state', async () => {
    await setQuota(stack, workspaceId, 100_000)
    const before = await storageState(stack, workspaceId)
    const refused = await tusUpload(path('big.pdf'), bytesOf(150_000))
    expect(refused).toEqual({ status: 403, body: expect.stringMatching(full('big.pdf')) })
    expect(await storageState(stack, workspaceId)).toEqual(before)

    const name = path('fits.pdf')
    expect(await tusUpload(name, bytesOf(60_000))).toBeUndefined()
    expect(await usage()).toMatchObject({ used_bytes: 60_000 })

    // A resumable upsert replaces the object it names, so that object's bytes are not counted.
    const stored60k = await storageState(stack, workspaceId)
    expect(await tusUpload(name, bytesOf(100_001), true)).toMatchObject({ status: 403 })
    expect(await storageState(stack, workspaceId)).toEqual(stored60k)
    expect(await tusUpload(name, bytesOf(100_000), true)).toBeUndefined()
    expect(await usage()).toMatchObject({ used_bytes: 100_000 })
  })

  it('the figure members read follows the stored bytes through upload, overwrite and delete', async () => {
    const [a, b] = [path('a.txt'), path('b.txt')]
    await upload(a, 1000)
    await upload(b, 2000)
    expect(await usage()).toEqual({ used_bytes: 3000, quota_bytes: 2 ** 30 })
    await upload(a, 500, true)
    expect(await usage()).toMatchObject({ used_bytes: 2500 })
    expect((await files().remove([b])).error).toBeNull()
    expect(await usage()).toMatchObject({ used_bytes: 500 })
    expect(await stored()).toBe(500)

    // What a documents row declares changes nothing; outsiders read nothing.
    const declared = await editor()
      .from('documents')
      .insert({ workspace_id: workspaceId, title: 'declared', size_bytes: 10 ** 6 })
    expect(declared.error).toBeNull()
    expect(await usage()).toMatchObject({ used_bytes: 500 })
    expect(await usage(workspaceId, people.outsider)).toBeNull()
    await db.rows('delete from public.documents where workspace_id = $1', [workspaceId])
  })

  it('another workspace keeps its own count and quota', async () => {
    const owner = clientFor(stack, people.owner)
    const { data: other, error } = await owner
      .from('workspaces')
      .insert({ name: 'Other' })
      .select()
      .single()
    if (error) throw error
    await setQuota(stack, workspaceId, 1000)
    const mine = path('a.bin')
    await upload(mine, 1000)

    expect((await files(owner).upload(pathIn(other.id, 'b.bin'), bytesOf(5000))).error).toBeNull()
    expect(await usage(other.id, people.owner)).toEqual({ used_bytes: 5000, quota_bytes: 2 ** 30 })
    expect(await usage()).toEqual({ used_bytes: 1000, quota_bytes: 1000 })
    expect((await files().upload(path('c.bin'), bytesOf(1))).error).toMatchObject({
      statusCode: '403',
    })

    // Moving an object into a full workspace is refused as an upload would be.
    await setQuota(stack, other.id, 5000)
    const moved = await files(owner).move(mine, pathIn(other.id, 'a.bin'))
    expect(moved.error).toMatchObject({
      statusCode: '403',
      message: expect.stringMatching(full('a.bin')),
    })
    expect(await usage()).toMatchObject({ used_bytes: 1000 })
    expect(await usage(other.id, people.owner)).toMatchObject({ used_bytes: 5000 })
  })

  it('two uploads at once cannot both take the last free bytes', async () => {
    await setQuota(stack, workspaceId, 100_000)
    const results = await Promise.all(
      [path('one.bin'), path('two.bin')].map((name) => files().upload(name, bytesOf(60_000))),
    )
    expect(results.filter((r) => r.error === null)).toHaveLength(1)
    expect(
      results.filter((r) => r.error?.message.startsWith("This workspace's storage is full")),
    ).toHaveLength(1)
    expect(await stored()).toBe(60_000)
    expect(await usage()).toMatchObject({ used_bytes: 60_000 })
  })

  it('a copy that would take the workspace past its quota is refused; a move within it is not', async () => {
    await setQuota(stack, workspaceId, 100_000)
    const original = path('a.bin')
    await upload(original, 60_000)
    const before = await storageState(stack, workspaceId)
    const copy = await files().copy(original, path('copy.bin'))
    expect(copy.error).toMatchObject({
      statusCode: '403',
      message: expect.stringMatching(full('copy.bin')),
    })
    expect(await storageState(stack, workspaceId)).toEqual(before)
    // A move within the workspace stores nothing more.
    const moved = path('moved.bin')
    expect((await files().move(original, moved)).error).toBeNull()
    expect(await usage()).toMatchObject({ used_bytes: 60_000 })
  })

  it('a path whose workspace folder is spelt in capitals is refused', async () => {
    const { error } = await files().upload(
      `${workspaceId.toUpperCase()}/${crypto.randomUUID()}/a.bin`,
      bytesOf(10),
    )
    expect(error).toMatchObject({ statusCode: '403', message: expect.stringMatching(/lower case/) })
    expect(await storageState(stack, workspaceId.toUpperCase())).toMatchObject({ objects: [] })
  })
})

describe('importing when Storage refuses the original', () => {
  it('the file is refused and its documents row goes, as if the row had been refused', async () => {
    const bytes = textFile('Harbour dues for the winter')
    await setQuota(stack, workspaceId, bytes.length + 100)
    const before = await db.rows('select id from public.documents where workspace_id = $1', [
      workspaceId,
    ])
    // The row fits; then another upload takes the room before this file's bytes arrive.
    const result = await ingestFile(
      editor(),
      { workspaceId, bytes, fileName: 'dues.txt' },
      {
        upload: async (target, body, contentType) => {
          await upload(path('meanwhile.bin'), 200)
          const { error } = await files().upload(target, body, { contentType })
          if (error) throw uploadError(error.statusCode, error.message)
        },
      },
    )
    expect(result).toEqual({ status: 'refused', error: expect.stringMatching(full('dues.txt')) })
    expect(
      await db.rows('select id from public.documents where workspace_id = $1', [workspaceId]),
    ).toEqual(before)
    expect(await stored()).toBe(200)
  })
})
