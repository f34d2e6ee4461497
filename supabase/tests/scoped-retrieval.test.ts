import { FunctionsHttpError } from '@supabase/supabase-js'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { promptText, startFakeProvider } from '../../tests/fake-provider/server.ts'
import { ask, createConversation, streamedText } from './chat-client.ts'
import { clientFor, startStack, type User } from './stack.ts'
import { addReadyDocument, createPeople, createWorld, type People } from './world.ts'

// Search and chat kept to a scope of documents and collections, through the real search and
// chat functions. A canary document outside the scope matches every question best: if any
// passage leaked out of the scope, it would be the canary's.
const fake = await startFakeProvider({ retryAfterSeconds: 0 })
const stack = await startStack({
  OPENAI_API_KEY: 'test',
  OPENAI_BASE_URL: `${fake.url}/v1`,
  CHAT_RATE_LIMIT_PER_MINUTE: '1000',
})
afterAll(async () => {
  await stack.stop()
  await fake.close()
})

type Result = { chunk_id: string; document_id: string; title: string }
type Doc = { documentId: string; chunkIds: string[] }

let people: People
let workspaceId: string
let herbarium: Doc
let voyage: Doc
let tides: Doc
let canary: Doc
let botany: string

const as = (user?: User) => clientFor(stack, user)
const search = (user: User | undefined, body: Record<string, unknown>) =>
  as(user).functions.invoke<{ results: Result[] }>('search', { body })
const useModel = (model: string | null) =>
  stack.db.pg.query('update public.workspaces set chat_model = $2 where id = $1', [
    workspaceId,
    model,
  ])
const documentsOf = (results: { document_id: string }[]) => [
  ...new Set(results.map((r) => r.document_id)),
]

async function scopedConversation(scope: { document_ids?: string[]; collection_ids?: string[] }) {
  const { data, error } = await as(people.viewer)
    .from('conversations')
    .insert({ workspace_id: workspaceId, title: 'Scoped', ...scope })
    .select('id')
    .single()
  if (error) throw error
  return (data as { id: string }).id
}

/** The cited and retrieved documents of one offline answer. */
async function offlineAnswer(conversationId: string, question: string) {
  const reply = await ask(stack, people.viewer, {
    conversation_id: conversationId,
    content: question,
  })
  expect(reply.status).toBe(200)
  const sources = reply.events.find((e) => e.event === 'sources')!.data.sources as Result[]
  const done = reply.events.at(-1)!
  expect(done.event).toBe('done')
  const citations = (done.data.message as { citations: Result[] }).citations
  return { text: streamedText(reply.events), sources, citations }
}

beforeAll(async () => {
  people = await createPeople(stack)
  workspaceId = (await createWorld(stack, people)).workspaceId
  const add = (title: string, texts: string[]) =>
    addReadyDocument(stack, people.editor, workspaceId, title, texts)
  herbarium = await add('Herbarium notes', [
    'The mangrove samples from the estuary were dried slowly to keep their leaves intact.',
  ])
  voyage = await add('Voyage log', [
    'We anchored near the estuary at dawn; the crew went ashore for water.',
  ])
  // Many passages about the estuary: enough to crowd every other document out of a top 8.
  tides = await add(
    'Tide tables',
    Array.from(
      { length: 10 },
      (_, i) => `Estuary tides, table ${i + 1}: the estuary mangrove samples flood at high water.`,
    ),
  )
  canary = await add('Canary memo', [
    'CANARY: the estuary mangrove samples were dried; estuary mangrove samples dried estuary.',
  ])
  const made = await as(people.editor)
    .from('collections')
    .insert({ workspace_id: workspaceId, name: 'Botany' })
    .select('id')
    .single()
  if (made.error) throw made.error
  botany = (made.data as { id: string }).id
  const added = await as(people.editor)
    .from('collection_documents')
    .insert({ collection_id: botany, document_id: herbarium.documentId })
  if (added.error) throw added.error
})

beforeEach(async () => {
  fake.reset()
  await useModel(null)
})

describe('scoped search', () => {
  it('finds the canary when nothing is scoped (so the scoped checks can fail)', async () => {
    const { data } = await search(people.viewer, {
      workspace_id: workspaceId,
      query: 'dried mangrove samples',
    })
    expect(data!.results[0]!.document_id).toBe(canary.documentId)
  })

  it('keeps to a collection, and to the union of collections and documents', async () => {
    const inBotany = await search(people.viewer, {
      workspace_id: workspaceId,
      query: 'estuary mangrove samples dried',
      collection_ids: [botany],
    })
    expect(inBotany.error).toBeNull()
    expect(documentsOf(inBotany.data!.results)).toEqual([herbarium.documentId])
    const union = await search(people.viewer, {
      workspace_id: workspaceId,
      query: 'estuary',
      collection_ids: [botany],
      document_ids: [voyage.documentId],
    })
    expect(documentsOf(union.data!.results).sort()).toEqual(
      [herbarium.documentId, voyage.documentId].sort(),
    )
    const typed = await search(people.viewer, {
      workspace_id: workspaceId,
      query: 'estuary',
      collection_ids: [botany],
      types: ['pdf'],
    })
    expect(typed.data!.results).toEqual([])
  })

  it('finds nothing in an empty or unknown collection', async () => {
    const empty = await as(people.editor)
      .from('collections')
      .insert({ workspace_id: workspaceId, name: 'Empty' })
      .select('id')
      .single()
    for (const id of [(empty.data as { id: string }).id, '00000000-0000-4000-8000-000000000000']) {
      const { data, error } = await search(people.viewer, {
        workspace_id: workspaceId,
        query: 'estuary',
        collection_ids: [id],
      })
      expect(error).toBeNull()
      expect(data!.results).toEqual([])
    }
  })

  it('answers bad collection ids with 400, and strangers with 403', async () => {
    const cases: [unknown, string][] = [
      [['botany'], 'collection_ids must be UUIDs'],
      [botany, 'collection_ids must be an array of UUIDs'],
      [Array.from({ length: 101 }, () => botany), 'at most 100 collections'],
    ]
    for (const [collectionIds, message] of cases) {
      const result = await search(people.owner, {
        workspace_id: workspaceId,
        query: 'estuary',
        collection_ids: collectionIds,
      })
      expect(result.error).toBeInstanceOf(FunctionsHttpError)
      const response = (result.error as FunctionsHttpError).context as Response
      expect(response.status).toBe(400)
      const body = (await response.json()) as { code: string; message: string }
      expect(body.code).toBe('invalid_input')
      expect(body.message).toContain(message)
    }
    for (const user of [people.outsider, undefined]) {
      const result = await search(user, {
        workspace_id: workspaceId,
        query: 'estuary',
        collection_ids: [botany],
      })
      const response = (result.error as FunctionsHttpError).context as Response
      expect(response.status).toBe(403)
      expect(await response.json()).toMatchObject({ code: 'not_member' })
    }
  })
})

describe('a scoped conversation', () => {
  it('answers offline from its scope only, and from everything without one', async () => {
    const question = 'How were the mangrove samples from the estuary dried?'
    const everything = await offlineAnswer(
      await createConversation(stack, people.viewer, workspaceId),
      question,
    )
    expect(documentsOf(everything.citations)).toContain(canary.documentId)

    const scoped = await offlineAnswer(
      await scopedConversation({ collection_ids: [botany], document_ids: [voyage.documentId] }),
      question,
    )
    expect(scoped.text).toContain('dried slowly')
    expect(scoped.text).not.toContain('CANARY')
    for (const passages of [scoped.sources, scoped.citations]) {
      expect(documentsOf(passages).every((id) => id !== canary.documentId)).toBe(true)
    }
    expect(documentsOf(scoped.citations)).toContain(herbarium.documentId)
  })

  it('follows a scope changed later, and answers nothing once its documents are gone', async () => {
    const id = await scopedConversation({ document_ids: [voyage.documentId] })
    const first = await offlineAnswer(id, 'Where did the crew anchor near the estuary?')
    expect(documentsOf(first.citations)).toEqual([voyage.documentId])
    await as(people.viewer)
      .from('conversations')
      .update({ document_ids: [herbarium.documentId] })
      .eq('id', id)
    const second = await offlineAnswer(id, 'How were the mangrove samples dried?')
    expect(documentsOf(second.citations)).toEqual([herbarium.documentId])
  })

  it('sends the model passages from its scope only', async () => {
    await useModel('openai:gpt-4.1-mini')
    const id = await scopedConversation({ collection_ids: [botany] })
    const reply = await ask(stack, people.viewer, {
      conversation_id: id,
      content: 'How were the mangrove samples dried?',
    })
    expect(reply.status).toBe(200)
    const sources = reply.events.find((e) => e.event === 'sources')!.data.sources as Result[]
    expect(documentsOf(sources)).toEqual([herbarium.documentId])
    const chat = fake.requests.filter((r) => r.kind === 'chat')
    expect(chat.length).toBeGreaterThan(0)
    for (const request of chat) expect(promptText(request)).not.toContain('CANARY')
    const answering = promptText(chat.find((r) => r.body.stream === true)!)
    expect(answering).toContain('dried slowly')
    // One document in scope: nothing to compare.
    expect(answering).not.toContain('cite each document you rely on')
  })

  it('compares: with several documents in scope, every one of them is heard', async () => {
    // Ranked as one, the tide tables fill the top 8 and the voyage log is left out…
    const ranked = await search(people.viewer, {
      workspace_id: workspaceId,
      query: 'estuary mangrove samples',
      limit: 8,
      document_ids: [tides.documentId, voyage.documentId],
    })
    expect(documentsOf(ranked.data!.results)).toEqual([tides.documentId])
    // …but a conversation about both draws passages from each, in turn.
    await useModel('openai:gpt-4.1-mini')
    const id = await scopedConversation({ document_ids: [tides.documentId, voyage.documentId] })
    const reply = await ask(stack, people.viewer, {
      conversation_id: id,
      content: 'estuary mangrove samples',
    })
    const sources = reply.events.find((e) => e.event === 'sources')!.data.sources as Result[]
    expect(sources).toHaveLength(8)
    expect(sources.slice(0, 2).map((s) => s.document_id)).toEqual([
      tides.documentId,
      voyage.documentId,
    ])
    const answering = fake.requests.find((r) => r.kind === 'chat' && r.body.stream === true)
    expect(promptText(answering!)).toContain('anchored near the estuary')
    // And the model is asked to draw on each document, citing each.
    expect(promptText(answering!)).toContain('cite each document you rely on')
  })
})
