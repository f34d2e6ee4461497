import { FunctionsHttpError } from '@supabase/supabase-js'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { startFakeProvider } from '../../tests/fake-provider/server.ts'
import { clientFor, startStack } from './stack.ts'
import { addReadyDocument, createPeople, createWorld, type People } from './world.ts'

// How provider failures reach a caller, through the embed function and the real AI SDK:
// which ones are retried, and the message each becomes; and how a call's time budget splits
// the work between calls.
const fake = await startFakeProvider({ apiKey: 'test' })
// A small local embedding model's server: inputs over 50 tokens are refused.
const small = await startFakeProvider({ maxInputTokens: 50 })
const stack = await startStack({
  OPENAI_COMPATIBLE_BASE_URL: `${small.url}/v1`,
  OPENAI_COMPATIBLE_EMBEDDING_MODEL: 'bge-small',
  OPENAI_API_KEY: 'test',
  OPENAI_BASE_URL: `${fake.url}/v1`,
  ANTHROPIC_API_KEY: 'test',
  ANTHROPIC_BASE_URL: `${fake.url}/v1`,
  GOOGLE_GENERATIVE_AI_API_KEY: '',
  AI_REQUEST_TIMEOUT_MS: '1500',
  // Out of time after the first batch: each call does one, then says what remains.
  EMBED_TIME_BUDGET_MS: '1',
})
afterAll(async () => {
  await stack.stop()
  await fake.close()
  await small.close()
})
beforeEach(() => {
  fake.reset()
  small.reset()
})

let people: People

beforeAll(async () => {
  people = await createPeople(stack)
})

/** A workspace using `model`, with one ready document of `chunks` chunks; returns its id. */
async function documentWith(
  model: string,
  chunks = 1,
  texts = Array.from({ length: chunks }, (_, i) => `Lichen ${i} grows on the stones.`),
): Promise<string> {
  const workspaceId = (await createWorld(stack, people)).workspaceId
  const { error } = await clientFor(stack, people.owner)
    .from('workspaces')
    .update({ embedding_model: model })
    .eq('id', workspaceId)
  expect(error).toBeNull()
  const doc = await addReadyDocument(stack, people.editor, workspaceId, 'Notes', texts)
  return doc.documentId
}

const embed = (documentId: string) =>
  clientFor(stack, people.editor).functions.invoke('embed', { body: { document_id: documentId } })

async function failure(result: { error: unknown }) {
  expect(result.error).toBeInstanceOf(FunctionsHttpError)
  const response = (result.error as FunctionsHttpError).context as Response
  return { status: response.status, body: (await response.json()) as Record<string, string> }
}

describe('the time budget', () => {
  it('stops starting batches when a call’s time is up, and the next call goes on', async () => {
    const documentId = await documentWith('openai:text-embedding-3-small', 70)
    expect((await embed(documentId)).data).toEqual({ embedded: 64, remaining: 6 })
    expect((await embed(documentId)).data).toEqual({ embedded: 6, remaining: 0 })
    expect(fake.requests).toHaveLength(2)
  })
})

describe('provider failures', () => {
  it('retries a server error once it has passed, and succeeds', async () => {
    const documentId = await documentWith('openai:text-embedding-3-small')
    fake.script({ kind: 'embeddings', fail: 'server_error' })
    const { data, error } = await embed(documentId)
    expect(error).toBeNull()
    expect(data).toEqual({ embedded: 1, remaining: 0 })
    expect(fake.requests).toHaveLength(2)
  })

  it('embeds a passage beyond the model’s input limit from its opening, and the rest whole', async () => {
    const long = Array.from({ length: 120 }, (_, i) => `Moss ${i} covers the wall.`).join(' ')
    const texts = ['Lichen grows on the stones.', long, 'Ferns curl in the shade.']
    const documentId = await documentWith('compatible:bge-small', 3, texts)
    const { data, error } = await embed(documentId)
    expect(error).toBeNull()
    expect(data).toEqual({ embedded: 3, remaining: 0 })
    // The batch is refused; then each passage alone, the long one halved until it fits.
    const inputs = small.requests.map((r) => r.body.input as string[])
    expect(inputs[0]).toEqual(texts)
    expect(inputs.slice(1).map((input) => input.length)).toEqual(inputs.slice(1).map(() => 1))
    const tried = inputs.slice(1).map(([text]) => text!)
    expect(tried[0]).toBe(texts[0])
    expect(tried.at(-1)).toBe(texts[2])
    const cuts = tried.slice(1, -1)
    expect(cuts[0]).toBe(long)
    for (const [i, cut] of cuts.entries()) {
      expect(long.startsWith(cut)).toBe(true)
      if (i > 0) expect(cut.length).toBe(Math.ceil(cuts[i - 1]!.length / 2))
    }
    expect(cuts.at(-1)!.split(/\s+/).length).toBeLessThanOrEqual(50)
  })

  it('says a passage is too long when even its opening is refused, without retrying', async () => {
    const documentId = await documentWith('openai:text-embedding-3-small')
    fake.script({ kind: 'embeddings', fail: 'context_length', times: 2 })
    const { status, body } = await failure(await embed(documentId))
    expect(status).toBe(400)
    expect(body.code).toBe('context_too_long')
    expect(body.message).toContain('too long for this model')
    // The batch, then the passage alone: it is shorter than any cut worth embedding.
    expect(fake.requests).toHaveLength(2)
  })

  it('gives up on a provider that does not answer', async () => {
    const documentId = await documentWith('openai:text-embedding-3-small')
    fake.script({ kind: 'embeddings', fail: 'hang' })
    const started = Date.now()
    const { status, body } = await failure(await embed(documentId))
    expect(Date.now() - started).toBeLessThan(10_000)
    expect({ status, code: body.code }).toEqual({ status: 502, code: 'provider_timeout' })
    expect(body.message).toBe('The AI provider did not answer in time. Try again in a moment.')
  })

  it('names what is missing for a model the server cannot use', async () => {
    const google = await failure(await embed(await documentWith('google:gemini-embedding-001')))
    expect(google.status).toBe(400)
    expect(google.body.code).toBe('model_unavailable')
    expect(google.body.message).toContain('GOOGLE_GENERATIVE_AI_API_KEY')

    const anthropic = await failure(await embed(await documentWith('anthropic:claude-haiku-4-5')))
    expect(anthropic.body).toEqual({
      code: 'model_unavailable',
      message: 'Anthropic offers no embedding models',
    })
    const malformed = await failure(await embed(await documentWith('text-embedding-3-small')))
    expect(malformed.body.message).toBe(
      '"text-embedding-3-small" is not a model id like openai:gpt-4.1-mini',
    )
    expect(fake.requests).toHaveLength(0)
  })
})
