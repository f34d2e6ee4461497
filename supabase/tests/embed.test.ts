import { FunctionsHttpError } from '@supabase/supabase-js'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { embedText, startFakeProvider } from '../../tests/fake-provider/server.ts'
import { adminClient, clientFor, startStack, type User } from './stack.ts'
import { addReadyDocument, createPeople, createWorld, type People } from './world.ts'

// The embed Edge Function on localbase, calling the real AI SDK against the fake provider:
// OpenAI's text-embedding-3-small (1536 dimensions) and an OpenAI-compatible server's model
// (64 dimensions, the fake's default for a model it does not know).
const fake = await startFakeProvider({ apiKey: 'test', retryAfterSeconds: 0 })
const stack = await startStack({
  OPENAI_API_KEY: 'test',
  OPENAI_BASE_URL: `${fake.url}/v1`,
  OPENAI_COMPATIBLE_BASE_URL: `${fake.url}/v1`,
  OPENAI_COMPATIBLE_API_KEY: 'test',
  OPENAI_COMPATIBLE_EMBEDDING_MODEL: 'fake-embed-64',
  // Every call finishes its work, however slow the machine (providers.test.ts cuts calls short).
  EMBED_TIME_BUDGET_MS: '600000',
})
afterAll(async () => {
  await stack.stop()
  await fake.close()
})
beforeEach(() => fake.reset())

const small = 'openai:text-embedding-3-small'
const compatible = 'compatible:fake-embed-64'

let people: People
let workspaceId: string

const embed = (user: User | undefined, body: Record<string, unknown>) =>
  clientFor(stack, user).functions.invoke<{ embedded: number; remaining: number }>('embed', {
    body,
  })

async function failure(result: { error: unknown }) {
  expect(result.error).toBeInstanceOf(FunctionsHttpError)
  const response = (result.error as FunctionsHttpError).context as Response
  return { status: response.status, body: (await response.json()) as Record<string, string> }
}

const texts = (n: number, topic: string) =>
  Array.from({ length: n }, (_, i) => `Note ${i} on ${topic}: specimen ${i * 7} was pressed.`)

/** A fresh workspace (owner, editor, viewer) with the given models set by its owner. */
async function workspaceWith(models: Record<string, string | null>): Promise<string> {
  const id = (await createWorld(stack, people)).workspaceId
  if (Object.keys(models).length > 0) await setModels(id, models)
  return id
}

async function setModels(id: string, models: Record<string, string | null>) {
  const { error } = await clientFor(stack, people.owner)
    .from('workspaces')
    .update(models)
    .eq('id', id)
  expect(error).toBeNull()
}

async function vectors(documentId: string) {
  const { rows } = await stack.db.pg.query<{ content: string; dims: number | null; v: string }>(
    `select content, extensions.vector_dims(embedding) as dims, embedding::text as v
     from public.chunks where document_id = $1 order by ordinal`,
    [documentId],
  )
  return rows
}

const staged = async (id: string) =>
  (
    await stack.db.pg.query<{ model: string; dims: number }>(
      `select model, extensions.vector_dims(embedding) as dims from public.chunk_embeddings
       where workspace_id = $1`,
      [id],
    )
  ).rows

const workspaceModels = async (id: string) =>
  (
    await stack.db.pg.query<{ embedding_model: string | null; pending: string | null }>(
      `select embedding_model, pending_embedding_model as pending from public.workspaces
       where id = $1`,
      [id],
    )
  ).rows[0]!

beforeAll(async () => {
  people = await createPeople(stack)
  workspaceId = await workspaceWith({ embedding_model: small })
})

describe('embed a document', () => {
  it('stores one vector per chunk, of the model’s dimension, and shows progress', async () => {
    const doc = await addReadyDocument(stack, people.editor, workspaceId, 'Herbarium', [
      'Pressed ferns were mounted on card.',
      'Mangrove samples dried slowly.',
      'Mosses are kept loose in packets.',
    ])
    await stack.db.pg.query(
      `update public.documents set status = 'processing', stage = 'indexing', chunk_count = 3
       where id = $1`,
      [doc.documentId],
    )
    const { data, error } = await embed(people.editor, { document_id: doc.documentId })
    expect(error).toBeNull()
    expect(data).toEqual({ embedded: 3, remaining: 0 })

    const rows = await vectors(doc.documentId)
    for (const row of rows) {
      expect(row.dims).toBe(1536)
      const stored = JSON.parse(row.v) as number[]
      const expected = embedText(row.content, 1536)
      // pgvector keeps 32-bit floats.
      expect(Math.max(...stored.map((x, i) => Math.abs(x - expected[i]!)))).toBeLessThan(1e-6)
    }
    // One provider call, with the key and the chunks' text.
    expect(fake.requests).toHaveLength(1)
    expect(fake.requests[0]!.headers.authorization).toBe('Bearer test')
    expect(fake.requests[0]!.body).toMatchObject({
      model: 'text-embedding-3-small',
      input: rows.map((r) => r.content),
    })
    const { rows: docs } = await stack.db.pg.query<{ stage: string; progress: number }>(
      'select stage, progress from public.documents where id = $1',
      [doc.documentId],
    )
    expect(docs[0]).toEqual({ stage: 'embedding', progress: 1 })
    // An HNSW index for 1536-dimensional vectors now exists.
    const { rows: indexes } = await stack.db.pg.query(
      `select 1 from pg_indexes where indexname = 'chunks_embedding_1536_idx'`,
    )
    expect(indexes).toHaveLength(1)
  })

  it('is idempotent: a second call embeds nothing and calls no provider', async () => {
    const doc = await addReadyDocument(stack, people.owner, workspaceId, 'Log', texts(2, 'tides'))
    expect((await embed(people.owner, { document_id: doc.documentId })).data).toEqual({
      embedded: 2,
      remaining: 0,
    })
    fake.reset()
    expect((await embed(people.owner, { document_id: doc.documentId })).data).toEqual({
      embedded: 0,
      remaining: 0,
    })
    expect(fake.requests).toHaveLength(0)
  })

  it('resumes after a failure part-way: the next call embeds only what is left', async () => {
    const doc = await addReadyDocument(stack, people.editor, workspaceId, 'Big', texts(70, 'moss'))
    fake.script({ kind: 'embeddings' }, { kind: 'embeddings', fail: 'unauthorized' })
    const first = await failure(await embed(people.editor, { document_id: doc.documentId }))
    expect(first.status).toBe(502)
    expect(first.body.code).toBe('provider_auth')
    expect(first.body.message).toContain('refused its API key')
    expect((await vectors(doc.documentId)).filter((r) => r.dims !== null)).toHaveLength(64)

    const second = await embed(people.editor, { document_id: doc.documentId })
    expect(second.data).toEqual({ embedded: 6, remaining: 0 })
    expect((await vectors(doc.documentId)).every((r) => r.dims === 1536)).toBe(true)
  })
})

describe('provider errors', () => {
  it('retries a rate limit, then says the provider is rate limiting', async () => {
    const doc = await addReadyDocument(stack, people.editor, workspaceId, 'Busy', texts(1, 'sea'))
    fake.script({ kind: 'embeddings', fail: 'rate_limit', times: 3 })
    const result = await failure(await embed(people.editor, { document_id: doc.documentId }))
    expect(result).toEqual({
      status: 429,
      body: {
        code: 'provider_rate_limited',
        message: 'The AI provider is rate limiting requests. Wait a minute and try again.',
      },
    })
    // The first try and two retries.
    expect(fake.requests).toHaveLength(3)
    expect((await vectors(doc.documentId))[0]!.dims).toBeNull()
  })

  it('says when the provider cannot be reached', async () => {
    const lone = await startStack({
      OPENAI_API_KEY: 'test',
      OPENAI_BASE_URL: 'http://127.0.0.1:9/v1',
    })
    try {
      const lonePeople = await createPeople(lone)
      const id = (await createWorld(lone, lonePeople)).workspaceId
      await clientFor(lone, lonePeople.owner)
        .from('workspaces')
        .update({ embedding_model: small })
        .eq('id', id)
      await addReadyDocument(lone, lonePeople.editor, id, 'Far', texts(1, 'reef'))
      const result = await clientFor(lone, lonePeople.editor).functions.invoke('embed', {
        body: { workspace_id: id },
      })
      const { status, body } = await failure(result)
      expect(status).toBe(502)
      expect(body.code).toBe('provider_unreachable')
      expect(body.message).toContain('Could not reach the AI provider')
    } finally {
      await lone.stop()
    }
  })
})

describe('who may embed', () => {
  let documentId: string
  beforeAll(async () => {
    documentId = (await addReadyDocument(stack, people.editor, workspaceId, 'Ru', texts(1, 'x')))
      .documentId
  })

  it('refuses a viewer, an outsider and an anonymous caller', async () => {
    expect((await failure(await embed(people.viewer, { document_id: documentId }))).body).toEqual({
      code: 'not_editor',
      message: 'Only editors and owners of the workspace can embed',
    })
    expect((await failure(await embed(people.outsider, { document_id: documentId }))).status).toBe(
      404,
    )
    expect(
      (await failure(await embed(people.outsider, { workspace_id: workspaceId }))).status,
    ).toBe(403)
    expect((await failure(await embed(people.viewer, { workspace_id: workspaceId }))).status).toBe(
      403,
    )
    const anonymous = await failure(await embed(undefined, { document_id: documentId }))
    expect(anonymous).toEqual({
      status: 401,
      body: { code: 'not_signed_in', message: 'Sign in to embed documents' },
    })
    expect(fake.requests).toHaveLength(0)
    expect((await vectors(documentId))[0]!.dims).toBeNull()
  })

  it('answers bad input with 400, and a workspace without a model too', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{}, 'The body must be { document_id } or { workspace_id }'],
      [{ document_id: 'nope' }, 'document_id must be a UUID'],
      [
        { document_id: documentId, workspace_id: workspaceId },
        'The body must be { document_id } or { workspace_id }',
      ],
    ]
    for (const [body, message] of cases) {
      const { status, body: answer } = await failure(await embed(people.editor, body))
      expect(status).toBe(400)
      expect(answer).toEqual({ code: 'invalid_input', message })
    }
    const bare = await workspaceWith({})
    const none = await failure(await embed(people.owner, { workspace_id: bare }))
    expect(none).toEqual({
      status: 400,
      body: {
        code: 'no_embedding_model',
        message: 'The workspace has no embedding model: choose one in Settings',
      },
    })
  })
})

describe('changing the embedding model', () => {
  it('builds the new vectors in staging while the old serve, then swaps them in', async () => {
    const id = await workspaceWith({ embedding_model: small })
    const doc = await addReadyDocument(stack, people.editor, id, 'Atlas', texts(70, 'coral'))
    expect((await embed(people.owner, { workspace_id: id })).data).toEqual({
      embedded: 70,
      remaining: 0,
    })
    await setModels(id, { pending_embedding_model: compatible })

    // The first batch lands in staging, then the provider fails: the old vectors still serve.
    fake.script({ kind: 'embeddings' }, { kind: 'embeddings', fail: 'unauthorized' })
    expect((await failure(await embed(people.owner, { workspace_id: id }))).body.code).toBe(
      'provider_auth',
    )
    expect(await staged(id)).toHaveLength(64)
    expect((await staged(id)).every((s) => s.model === compatible && s.dims === 64)).toBe(true)
    expect((await vectors(doc.documentId)).every((r) => r.dims === 1536)).toBe(true)
    expect(await workspaceModels(id)).toEqual({ embedding_model: small, pending: compatible })

    // The next call finishes, promotes, and moves the staged vectors into place: the 6 it
    // made and the 70 it moved count as embedded.
    expect((await embed(people.owner, { workspace_id: id })).data).toEqual({
      embedded: 76,
      remaining: 0,
    })
    expect(await workspaceModels(id)).toEqual({ embedding_model: compatible, pending: null })
    expect((await vectors(doc.documentId)).every((r) => r.dims === 64)).toBe(true)
    expect(await staged(id)).toEqual([])
    const last = fake.requests.at(-1)!
    expect(last.body.model).toBe('fake-embed-64')
    expect(last.headers.authorization).toBe('Bearer test')
  })

  it('replaces the old vectors when an owner replaces the active model outright', async () => {
    const id = await workspaceWith({ embedding_model: small })
    const doc = await addReadyDocument(stack, people.editor, id, 'Tide', texts(2, 'kelp'))
    await embed(people.owner, { workspace_id: id })
    await setModels(id, { embedding_model: compatible })
    // Unread from now on; the next embed call drops them (embed-upkeep-steps.test.ts).
    expect((await vectors(doc.documentId)).every((r) => r.dims === 1536)).toBe(true)
    expect((await embed(people.editor, { document_id: doc.documentId })).data).toEqual({
      embedded: 2,
      remaining: 0,
    })
    expect((await vectors(doc.documentId)).every((r) => r.dims === 64)).toBe(true)
  })
})

describe('search with an embedding model', () => {
  type Hit = { chunk_id: string; semantic_rank: number | null; similarity: number | null }
  const search = (id: string, query: string) =>
    clientFor(stack, people.viewer).functions.invoke<{ results: Hit[] }>('search', {
      body: { workspace_id: id, query },
    })

  it('embeds the query with the active model and ranks by both', async () => {
    const doc = await addReadyDocument(stack, people.editor, workspaceId, 'Reef', [
      'Coral polyps build the reef from calcium carbonate.',
      'Seagrass meadows shelter juvenile fish.',
    ])
    await embed(people.editor, { document_id: doc.documentId })
    fake.reset()
    const { data, error } = await search(workspaceId, 'coral reef polyps')
    expect(error).toBeNull()
    const top = data!.results[0]!
    expect(top.chunk_id).toBe(doc.chunkIds[0])
    expect(top.semantic_rank).toBe(1)
    expect(top.similarity).toBeGreaterThan(0.3)
    expect(fake.requests.map((r) => r.body)).toEqual([
      expect.objectContaining({ model: 'text-embedding-3-small', input: ['coral reef polyps'] }),
    ])
  })

  it('falls back to lexical ranking when the provider fails, and without a model', async () => {
    fake.script({ kind: 'embeddings', fail: 'server_error' })
    const failed = await search(workspaceId, 'coral reef polyps')
    expect(failed.error).toBeNull()
    expect(failed.data!.results.length).toBeGreaterThan(0)
    expect(failed.data!.results.every((r) => r.semantic_rank === null)).toBe(true)

    const bare = await workspaceWith({})
    await addReadyDocument(stack, people.editor, bare, 'Plain', ['Coral reef notes.'])
    fake.reset()
    const lexical = await search(bare, 'coral')
    expect(lexical.data!.results[0]!.semantic_rank).toBeNull()
    expect(fake.requests).toHaveLength(0)
  })
})

describe('vector indexes', () => {
  it('makes an HNSW index for any dimension up to 4,000, for the service role only', async () => {
    const admin = adminClient(stack)
    for (const dims of [384, 3072]) {
      expect((await admin.rpc('ensure_embedding_index', { dims })).error).toBeNull()
    }
    const { rows } = await stack.db.pg.query<{ indexname: string; indexdef: string }>(
      `select indexname, indexdef from pg_indexes
       where indexname in ('chunks_embedding_384_idx', 'chunks_embedding_3072_idx')
       order by indexname`,
    )
    expect(rows.map((r) => r.indexname)).toEqual([
      'chunks_embedding_3072_idx',
      'chunks_embedding_384_idx',
    ])
    expect(rows[0]!.indexdef).toContain('halfvec(3072)')
    expect(rows[1]!.indexdef).toContain('vector(384)')
    // Larger vectors are searched exactly: no index, no error.
    expect((await admin.rpc('ensure_embedding_index', { dims: 8192 })).error).toBeNull()
    expect((await admin.rpc('ensure_embedding_index', { dims: 0 })).error?.message).toBe(
      'dims must be between 1 and 16000',
    )
    const refused = await clientFor(stack, people.owner).rpc('ensure_embedding_index', {
      dims: 512,
    })
    expect(refused.error?.code).toBe('42501')
  })
})
