import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { clientFor, startStack, type User } from './stack.ts'
import { createPeople, createWorld, type People } from './world.ts'

const stack = await startStack()
afterAll(() => stack.stop())

let people: People
let workspaceId: string
beforeAll(async () => {
  people = await createPeople(stack)
  workspaceId = (await createWorld(stack, people)).workspaceId
})

const as = (user?: User) => clientFor(stack, user)
const sha = (c: string) => c.repeat(64)

async function insertDocument(user: User | undefined, values: Record<string, unknown> = {}) {
  return as(user)
    .from('documents')
    .insert({ workspace_id: workspaceId, title: 'Report', ...values })
    .select()
    .single()
}

async function exists(table: string, id: string): Promise<boolean> {
  const { rows } = await stack.db.pg.query(`select 1 from public.${table} where id = $1`, [id])
  return rows.length === 1
}

describe('documents and chunks by role', () => {
  it('editors and owners add documents; viewers, outsiders and anonymous callers cannot', async () => {
    for (const user of [people.editor, people.owner]) {
      const { data, error } = await insertDocument(user)
      expect(error).toBeNull()
      expect(data).toMatchObject({ status: 'queued', stage: 'uploading', created_by: user.id })
    }
    for (const user of [people.viewer, people.outsider, undefined]) {
      const { error } = await insertDocument(user)
      expect(error?.code).toBe('42501')
    }
  })

  it('members read documents and chunks; outsiders see nothing', async () => {
    const doc = (await insertDocument(people.editor)).data as { id: string }
    const chunk = await as(people.editor)
      .from('chunks')
      .insert({ document_id: doc.id, workspace_id: workspaceId, ordinal: 0, content: 'hello' })
      .select('id')
      .single()
    expect(chunk.error).toBeNull()
    for (const table of ['documents', 'chunks']) {
      const column = table === 'documents' ? 'id' : 'document_id'
      const viewer = await as(people.viewer).from(table).select('id').eq(column, doc.id)
      expect(viewer.data).toHaveLength(1)
      const outsider = await as(people.outsider).from(table).select('id').eq(column, doc.id)
      expect(outsider).toMatchObject({ error: null, data: [] })
    }
  })

  it('viewers cannot change or delete; editors delete, and chunks go with the document', async () => {
    const doc = (await insertDocument(people.editor)).data as { id: string }
    const chunk = await as(people.editor)
      .from('chunks')
      .insert({ document_id: doc.id, workspace_id: workspaceId, ordinal: 0, content: 'x' })
      .select('id')
      .single()
    const chunkId = (chunk.data as { id: string }).id
    await as(people.viewer).from('documents').update({ title: 'Mine' }).eq('id', doc.id)
    await as(people.viewer).from('chunks').delete().eq('id', chunkId)
    await as(people.viewer).from('documents').delete().eq('id', doc.id)
    expect(await exists('documents', doc.id)).toBe(true)
    expect(await exists('chunks', chunkId)).toBe(true)
    const { rows } = await stack.db.pg.query('select title from public.documents where id = $1', [
      doc.id,
    ])
    expect(rows).toEqual([{ title: 'Report' }])

    expect((await as(people.editor).from('documents').delete().eq('id', doc.id)).error).toBeNull()
    expect(await exists('documents', doc.id)).toBe(false)
    expect(await exists('chunks', chunkId)).toBe(false)
  })

  it('refuses a chunk that names another workspace than its document', async () => {
    const other = (await createWorld(stack, people)).workspaceId
    const doc = (await insertDocument(people.editor)).data as { id: string }
    const { error } = await as(people.editor)
      .from('chunks')
      .insert({ document_id: doc.id, workspace_id: other, ordinal: 0, content: 'x' })
    expect(error?.code).toBe('23503')
  })

  it('detects a duplicate upload by sha256, except of a failed one', async () => {
    const first = await insertDocument(people.editor, { sha256: sha('a') })
    expect(first.error).toBeNull()
    const again = await insertDocument(people.editor, { sha256: sha('a') })
    expect(again.error?.code).toBe('23505')
    await as(people.editor).from('documents').update({ status: 'failed' }).eq('sha256', sha('a'))
    expect((await insertDocument(people.editor, { sha256: sha('a') })).error).toBeNull()
  })

  it('refuses bad values with check violations', async () => {
    for (const values of [{ status: 'done' }, { stage: 'x' }, { progress: 2 }, { sha256: 'ab' }]) {
      const { error } = await insertDocument(people.editor, values)
      expect(error?.code, JSON.stringify(values)).toBe('23514')
    }
  })
})

describe('the documents bucket', () => {
  const file = () => new Blob(['%PDF-1.4 test'], { type: 'application/pdf' })
  const path = (name: string) => `${workspaceId}/${crypto.randomUUID()}/${name}`

  it('is private', async () => {
    const { rows } = await stack.db.pg.query(
      `select public from storage.buckets where id = 'documents'`,
    )
    expect(rows).toEqual([{ public: false }])
  })

  it('lets editors upload, members read, and nobody else either', async () => {
    const bucket = (user?: User) => as(user).storage.from('documents')
    const name = path('report.pdf')
    expect((await bucket(people.viewer).upload(path('v.pdf'), file())).error).not.toBeNull()
    expect((await bucket(people.outsider).upload(path('o.pdf'), file())).error).not.toBeNull()
    expect((await bucket(people.editor).upload(name, file())).error).toBeNull()

    const viewer = await bucket(people.viewer).download(name)
    expect(viewer.error).toBeNull()
    expect(await viewer.data?.text()).toBe('%PDF-1.4 test')
    expect((await bucket(people.outsider).download(name)).data).toBeNull()
    expect((await bucket(undefined).download(name)).data).toBeNull()

    // Viewers cannot delete; editors can.
    await bucket(people.viewer).remove([name])
    expect((await bucket(people.viewer).download(name)).error).toBeNull()
    expect((await bucket(people.editor).remove([name])).data).toHaveLength(1)
    expect((await bucket(people.viewer).download(name)).data).toBeNull()
  })

  it('refuses paths that do not start with a workspace the caller edits', async () => {
    const bucket = as(people.editor).storage.from('documents')
    for (const name of ['not-a-uuid/doc/x.pdf', `${crypto.randomUUID()}/doc/x.pdf`, 'x.pdf']) {
      const { error } = await bucket.upload(name, file())
      expect(error, name).not.toBeNull()
    }
  })
})
