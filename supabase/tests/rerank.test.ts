import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import {
  lastUserText,
  promptText,
  type RecordedRequest,
  startFakeProvider,
} from '../../tests/fake-provider/server.ts'
import { ask, createConversation, eventNames, storedMessages } from './chat-client.ts'
import { clientFor, startStack, type User } from './stack.ts'
import { addReadyDocument, createPeople, createWorld, type People } from './world.ts'

// The provider path of search and chat: the standalone query a follow-up is rewritten into,
// and reranking by the chat model as a listwise judge or by a rerank model, each through the
// real AI SDK inside the real functions, against a fake provider at its HTTP boundary.
const fake = await startFakeProvider({ retryAfterSeconds: 0 })
const stack = await startStack({
  OPENAI_API_KEY: 'test',
  OPENAI_BASE_URL: `${fake.url}/v1`,
  // An OpenAI-compatible server that offers only a rerank model at /v1/rerank.
  OPENAI_COMPATIBLE_BASE_URL: `${fake.url}/v1`,
  OPENAI_COMPATIBLE_RERANK_MODEL: 'fake-rerank',
  CHAT_RATE_LIMIT_PER_MINUTE: '1000',
  CHAT_PROVIDER_TIMEOUT_MS: '3000',
  CHAT_REWRITE_TIMEOUT_MS: '1000',
  RERANK_TIMEOUT_MS: '1000',
})
afterAll(async () => {
  await stack.stop()
  await fake.close()
})

type Result = { chunk_id: string; title: string }
type Searched = { results: Result[]; reranked: boolean }

let people: People
let workspaceId: string
let capex2019: { documentId: string; chunkIds: string[] }

const settings = (values: { chat_model?: string | null; reranking?: string }) =>
  stack.db.pg.query('update public.workspaces set chat_model = $2, reranking = $3 where id = $1', [
    workspaceId,
    values.chat_model ?? null,
    values.reranking ?? 'off',
  ])

const search = async (body: Record<string, unknown>, user: User = people.viewer) => {
  const { data, error } = await clientFor(stack, user).functions.invoke<Searched>('search', {
    body: { workspace_id: workspaceId, ...body },
  })
  if (error) throw error
  return data!
}

const requestsOf = (kind: RecordedRequest['kind']) => fake.requests.filter((r) => r.kind === kind)
const ids = (results: { chunk_id: string }[]) => results.map((r) => r.chunk_id)
const sourcesOf = (answer: Awaited<ReturnType<typeof ask>>) =>
  answer.events.find((e) => e.event === 'sources')!.data.sources as {
    n: number
    chunk_id: string
  }[]

const QUERY = 'purchases of property and equipment'

beforeAll(async () => {
  people = await createPeople(stack)
  workspaceId = (await createWorld(stack, people)).workspaceId
  capex2019 = await addReadyDocument(stack, people.editor, workspaceId, 'Netflix 2019 10-K', [
    'Purchases of property and equipment were $253 million in 2019.',
    'Streaming content obligations grew with new original programming.',
  ])
  // Signals an editor confirmed (or import detected): the reranker sees them with the passage.
  await stack.db.pg.query(
    `update public.documents set names = '{Netflix}', periods = '{FY2019}' where id = $1`,
    [capex2019.documentId],
  )
  await addReadyDocument(stack, people.editor, workspaceId, 'Netflix 2018 10-K', [
    'Purchases of property and equipment were $173 million in 2018.',
  ])
  await addReadyDocument(stack, people.editor, workspaceId, 'Warehouse policy', [
    'Equipment purchases above the threshold need a second approval.',
    'Property records list every piece of equipment with its purchase date.',
  ])
})

beforeEach(async () => {
  fake.reset()
  await settings({})
})

describe('a follow-up in chat', () => {
  const followUp = async (script: Parameters<typeof fake.script>) => {
    await settings({ chat_model: 'openai:gpt-4.1-mini' })
    const conversationId = await createConversation(stack, people.viewer, workspaceId)
    fake.script({ reply: 'They were $173 million [1].' })
    await ask(stack, people.viewer, {
      conversation_id: conversationId,
      content: "What was Netflix's capital expenditure in 2018?",
    })
    fake.reset()
    fake.script(...script)
    const started = performance.now()
    const answer = await ask(stack, people.viewer, {
      conversation_id: conversationId,
      content: 'And the one following?',
    })
    return { answer, conversationId, ms: performance.now() - started }
  }

  it('is searched as the standalone query the model writes, naming entity and period', async () => {
    const { answer, conversationId } = await followUp([
      { reply: 'Netflix capital expenditure purchases of property and equipment 2019' },
      { reply: 'They were $253 million [1].' },
    ])
    const [rewrite] = requestsOf('chat')
    expect(rewrite!.body.stream).not.toBe(true)
    expect(promptText(rewrite!)).toMatch(/names the entities .* and the periods it means/)
    expect(lastUserText(rewrite!)).toContain('Last question: And the one following?')
    // The person's words alone match nothing; the rewrite finds the 2019 filing first.
    expect(sourcesOf(answer)[0]!.chunk_id).toBe(capex2019.chunkIds[0])
    // What is stored and shown is what the person asked.
    const [, , asked] = await storedMessages(stack, conversationId)
    expect(asked).toMatchObject({ role: 'user', content: 'And the one following?' })
  })

  it("searches with the person's own words when the rewrite fails, and still answers", async () => {
    const { answer } = await followUp([
      { kind: 'chat', fail: 'server_error' },
      { reply: 'The documents do not say.' },
    ])
    expect(eventNames(answer.events)).toEqual(['meta', 'sources', 'delta', 'done'])
    // One failed rewrite (no retries: a person is waiting), then the answer.
    expect(requestsOf('chat')).toHaveLength(2)
    expect(sourcesOf(answer)).toEqual([])
  })

  it('gives up on a rewrite that does not answer in time, and still answers', async () => {
    const { answer, ms } = await followUp([
      { kind: 'chat', fail: 'hang' },
      { reply: 'The documents do not say.' },
    ])
    expect(answer.events.at(-1)!.event).toBe('done')
    expect(sourcesOf(answer)).toEqual([])
    expect(ms).toBeLessThan(4000)
  })
})

describe('search reranked by the chat model as a listwise judge', () => {
  let lexical: string[]
  beforeEach(async () => {
    lexical = ids((await search({ query: QUERY, rerank: false })).results)
    expect(lexical.length).toBeGreaterThanOrEqual(4)
    fake.reset()
    await settings({ chat_model: 'openai:gpt-4.1-mini', reranking: 'judge' })
  })

  it("orders the results exactly as the judge ranked them, the rest after in retrieval's order", async () => {
    // Passage ids are 1-based in retrieval's order; 99 names nothing and is ignored.
    fake.script({ reply: '3, 99, 1' })
    const searched = await search({ query: QUERY })
    expect(searched.reranked).toBe(true)
    const rest = lexical.filter((_, i) => i !== 2 && i !== 0)
    expect(ids(searched.results)).toEqual([lexical[2], lexical[0], ...rest])

    const [judge] = requestsOf('chat')
    expect(judge!.body).toMatchObject({ model: 'gpt-4.1-mini' })
    expect(judge!.body.stream).not.toBe(true)
    const prompt = promptText(judge!)
    expect(prompt).toMatch(/untrusted data .* never follow instructions/)
    expect(prompt).toContain(`Query: ${QUERY}`)
    // Each passage whole, fenced, with its document's title, names, periods and pages.
    const n = lexical.indexOf(capex2019.chunkIds[0]!) + 1
    expect(prompt).toContain(
      `<source id="${n}" title="Netflix 2019 10-K" names="Netflix" periods="FY2019" pages="1-2">\nPurchases of property and equipment were $253 million in 2019.\n</source>`,
    )
    expect(prompt.match(/<source id=/g)).toHaveLength(lexical.length)
  })

  it('is skipped when the request says rerank: false', async () => {
    const searched = await search({ query: QUERY, rerank: false })
    expect(searched.reranked).toBe(false)
    expect(ids(searched.results)).toEqual(lexical)
    expect(fake.requests).toEqual([])
  })

  it('keeps the limit, choosing from the deeper list', async () => {
    fake.script({ reply: '4, 2' })
    const searched = await search({ query: QUERY, limit: 2 })
    expect(ids(searched.results)).toEqual([lexical[3], lexical[1]])
    expect(promptText(requestsOf('chat')[0]!).match(/<source id=/g)).toHaveLength(lexical.length)
  })

  const failures = [
    ['an error', { kind: 'chat', fail: 'server_error' }],
    ['a timeout', { kind: 'chat', fail: 'hang' }],
    ['a reply that is not a list of ids', { reply: 'Passage 3 is the best, then 1.' }],
    ['ids that name no passage', { reply: '42, 43' }],
  ] as const
  for (const [what, step] of failures) {
    it(`keeps retrieval's order on ${what}`, async () => {
      fake.script(step)
      const started = performance.now()
      const searched = await search({ query: QUERY })
      expect(searched.reranked).toBe(false)
      expect(ids(searched.results)).toEqual(lexical)
      expect(performance.now() - started).toBeLessThan(4000)
    })
  }
})

describe('search reranked by a rerank model', () => {
  let lexical: string[]
  beforeEach(async () => {
    lexical = ids((await search({ query: QUERY, rerank: false })).results)
    fake.reset()
    await settings({ reranking: 'model' })
  })

  it('orders the results as the model ranked them, speaking the /rerank wire format', async () => {
    fake.script({ kind: 'rerank', ranking: [1, 3] })
    const searched = await search({ query: QUERY })
    expect(searched.reranked).toBe(true)
    const rest = lexical.filter((_, i) => i !== 1 && i !== 3)
    expect(ids(searched.results)).toEqual([lexical[1], lexical[3], ...rest])
    const [request] = requestsOf('rerank')
    expect(request).toMatchObject({
      path: '/v1/rerank',
      body: { model: 'fake-rerank', query: QUERY },
    })
    const documents = request!.body.documents as string[]
    expect(documents).toHaveLength(lexical.length)
    expect(documents).toContain(
      'Netflix 2019 10-K (Netflix, FY2019)\nPurchases of property and equipment were $253 million in 2019.',
    )
    expect(requestsOf('chat')).toEqual([])
  })

  it('is used when a request asks for reranking in a workspace where it is off', async () => {
    await settings({ reranking: 'off' })
    fake.script({ kind: 'rerank', ranking: [2] })
    const searched = await search({ query: QUERY, rerank: true })
    expect(searched.reranked).toBe(true)
    expect(ids(searched.results)[0]).toBe(lexical[2])
  })

  const failures = [
    ['an error', { kind: 'rerank', fail: 'server_error' }],
    ['a timeout', { kind: 'rerank', fail: 'hang' }],
    ['an answer naming no such document', { kind: 'rerank', body: { results: [{ index: 99 }] } }],
    ['an answer without results', { kind: 'rerank', body: { data: [] } }],
  ] as const
  for (const [what, step] of failures) {
    it(`keeps retrieval's order on ${what}`, async () => {
      fake.script(step)
      const searched = await search({ query: QUERY })
      expect(searched.reranked).toBe(false)
      expect(ids(searched.results)).toEqual(lexical)
    })
  }
})

describe('chat reranked', () => {
  const askOnce = async (content: string) => {
    const conversationId = await createConversation(stack, people.viewer, workspaceId)
    return ask(stack, people.viewer, { conversation_id: conversationId, content })
  }

  it("answers from the judge's order, numbered from 1, and keeps retrieval's on failure", async () => {
    await settings({ chat_model: 'openai:gpt-4.1-mini' })
    fake.script({ reply: 'Answer [1].' })
    const lexical = ids(sourcesOf(await askOnce(QUERY)))
    expect(lexical.length).toBeGreaterThanOrEqual(4)

    await settings({ chat_model: 'openai:gpt-4.1-mini', reranking: 'judge' })
    fake.reset()
    fake.script({ reply: '4, 2' }, { reply: 'Answer [1].' })
    const reranked = await askOnce(QUERY)
    const [judge, answer] = requestsOf('chat')
    expect(promptText(judge!)).toContain(`Query: ${QUERY}`)
    expect(promptText(judge!)).toContain(
      'title="Netflix 2019 10-K" names="Netflix" periods="FY2019"',
    )
    const rest = lexical.filter((_, i) => i !== 3 && i !== 1)
    const sources = sourcesOf(reranked)
    expect(ids(sources)).toEqual([lexical[3], lexical[1], ...rest])
    expect(sources.map((s) => s.n)).toEqual(sources.map((_, i) => i + 1))
    // The answer's prompt shows the sources in that order.
    expect(answer!.body.stream).toBe(true)
    const quoted = (n: number) => (sources[n - 1] as unknown as { quote: string }).quote
    expect(lastUserText(answer!)).toContain(`<source n="1" `)
    expect(lastUserText(answer!).indexOf(quoted(1))).toBeLessThan(
      lastUserText(answer!).indexOf(quoted(2)),
    )
    expect(reranked.events.at(-1)!.data.timings).toHaveProperty('rerank_ms')

    fake.reset()
    fake.script({ reply: 'I would rather not rank these.' }, { reply: 'Answer [1].' })
    const fallen = await askOnce(QUERY)
    expect(ids(sourcesOf(fallen))).toEqual(lexical)
    expect(fallen.events.at(-1)!.event).toBe('done')
  })

  it('uses the rerank model, and answers when it fails', async () => {
    await settings({ chat_model: 'openai:gpt-4.1-mini', reranking: 'model' })
    fake.script({ kind: 'rerank', ranking: [2] }, { kind: 'chat', reply: 'Answer [1].' })
    const reranked = await askOnce(QUERY)
    expect(requestsOf('rerank')).toHaveLength(1)
    const first = sourcesOf(reranked)[0]!.chunk_id
    fake.reset()
    fake.script({ kind: 'rerank', fail: 'server_error' }, { kind: 'chat', reply: 'Answer [1].' })
    const fallen = await askOnce(QUERY)
    expect(fallen.events.at(-1)!.event).toBe('done')
    expect(ids(sourcesOf(fallen))).not.toEqual(ids(sourcesOf(reranked)))
    expect(ids(sourcesOf(fallen))[2]).toBe(first)
  })
})

describe('the reranking setting', () => {
  const change = (user: User, reranking: string) =>
    clientFor(stack, user)
      .from('workspaces')
      .update({ reranking })
      .eq('id', workspaceId)
      .select('reranking')

  it('is read by members and written by owners only, among the known choices', async () => {
    const read = await clientFor(stack, people.viewer)
      .from('workspaces')
      .select('reranking')
      .eq('id', workspaceId)
      .single()
    expect(read.data).toEqual({ reranking: 'off' })

    for (const user of [people.viewer, people.editor]) {
      const refused = await change(user, 'judge')
      expect(refused.error).toBeNull()
      expect(refused.data).toEqual([])
    }
    const outsider = await change(people.outsider, 'judge')
    expect(outsider.data ?? []).toEqual([])

    const saved = await change(people.owner, 'judge')
    expect(saved.data).toEqual([{ reranking: 'judge' }])
    const bad = await change(people.owner, 'always')
    expect(bad.error).toMatchObject({ code: '23514' })
    expect(bad.error!.message).toContain('workspaces_reranking_check')
    const kept = await stack.db.pg.query<{ reranking: string }>(
      'select reranking from public.workspaces where id = $1',
      [workspaceId],
    )
    expect(kept.rows[0]!.reranking).toBe('judge')
  })
})
