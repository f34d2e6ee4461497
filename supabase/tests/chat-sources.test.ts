import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ask, createConversation } from './chat-client.ts'
import { clientFor, startStack } from './stack.ts'
import { addReadyDocument, createPeople, createWorld, type People } from './world.ts'

// The passages chat answers from (chat_sources, 20260101005300_search_one_document.sql): the
// workspace's ranking chooses the documents and how many passages of each, each document
// fills its places with its own best passages; a conversation kept to one document ranks by
// that document alone.
const stack = await startStack({ CHAT_RATE_LIMIT_PER_MINUTE: '1000' })
afterAll(() => stack.stop())

type Source = { chunk_id: string; document_id: string; title: string; content: string }

let people: People
let workspaceId: string
let harbor: { documentId: string; chunkIds: string[] }

beforeAll(async () => {
  people = await createPeople(stack)
  workspaceId = (await createWorld(stack, people)).workspaceId
  const add = (title: string, texts: string[]) =>
    addReadyDocument(stack, people.editor, workspaceId, title, texts)
  // "Harbor" is rare in the workspace and on every passage of this report, so the workspace's
  // statistics prefer the passage that repeats it; inside the report, "dredging" tells.
  harbor = await add('Harbor annual report', [
    'The Harbor Company owns the harbor, the harbor cranes and the harbor tugs of the harbor.',
    'Costs of dredging the harbor rose this year after the storms.',
    'The harbor board met four times; the harbor pilots renewed their contract.',
    'Harbor revenue from berths and moorings grew by a tenth.',
  ])
  for (const i of [1, 2, 3, 4, 5]) {
    await add(`Dredging contractor ${i}`, [
      'Dredging contracts for rivers and canals.',
      'Dredging equipment: cutter suction dredgers and hoppers.',
    ])
  }
})

const viewer = () => clientFor(stack, people.viewer)

async function sources(query: string, conversationId: string | null = null) {
  const { data, error } = await viewer().rpc('chat_sources', {
    workspace_id: workspaceId,
    query,
    match_count: 8,
    conversation_id: conversationId,
  })
  expect(error).toBeNull()
  return data as Source[]
}

describe('chat sources', () => {
  it("keeps the workspace's documents in their places, each filled by its own best passages", async () => {
    const query = 'harbor dredging'
    const { data, error } = await viewer().rpc('search_chunks', {
      workspace_id: workspaceId,
      query,
      match_count: 8,
      snippets: false,
    })
    expect(error).toBeNull()
    const workspaceRanking = data as Source[]
    const firstHarbor = workspaceRanking.find((r) => r.document_id === harbor.documentId)!
    expect(firstHarbor.chunk_id).toBe(harbor.chunkIds[0])

    const found = await sources(query)
    expect(found.map((s) => s.document_id)).toEqual(workspaceRanking.map((r) => r.document_id))
    const harborOwn = found.filter((s) => s.document_id === harbor.documentId)
    expect(harborOwn[0]).toMatchObject({
      chunk_id: harbor.chunkIds[1],
      title: 'Harbor annual report',
      content: 'Costs of dredging the harbor rose this year after the storms.',
    })
    expect(new Set(found.map((s) => s.chunk_id)).size).toBe(found.length)
  })

  it("ranks a conversation kept to one document by that document's statistics", async () => {
    const { data, error } = await viewer()
      .from('conversations')
      .insert({ workspace_id: workspaceId, title: 'Harbor', document_ids: [harbor.documentId] })
      .select('id')
      .single<{ id: string }>()
    expect(error).toBeNull()
    const found = await sources('harbor dredging', data!.id)
    expect(found[0]!.chunk_id).toBe(harbor.chunkIds[1])
    expect(new Set(found.map((s) => s.document_id))).toEqual(new Set([harbor.documentId]))
  })

  it('answers offline from the passage the document itself ranks first', async () => {
    const conversationId = await createConversation(stack, people.viewer, workspaceId)
    const reply = await ask(stack, people.viewer, {
      conversation_id: conversationId,
      content: 'What happened to harbor dredging costs?',
    })
    expect(reply.status).toBe(200)
    const done = reply.events.find((e) => e.event === 'done')!
    const message = done.data.message as { content: string; citations: Source[] }
    expect(message.content).toContain('Costs of dredging the harbor rose this year')
    expect(message.citations.map((c) => c.chunk_id)).toContain(harbor.chunkIds[1])
  })

  it("reads a passage starting inside a table with its heading path's title and header row", async () => {
    const client = clientFor(stack, people.editor)
    const doc = await client
      .from('documents')
      .insert({
        workspace_id: workspaceId,
        title: 'Quayside ledger',
        status: 'ready',
        stage: 'ready',
      })
      .select('id')
      .single<{ id: string }>()
    expect(doc.error).toBeNull()
    // The chunker's heading path for a passage below a table's header: title, header row.
    const headingPath = ['Quayside Port statement of income', '| | 2024 | 2023 |']
    const chunk = await client
      .from('chunks')
      .insert({
        document_id: doc.data!.id,
        workspace_id: workspaceId,
        ordinal: 0,
        content: '| Berth fees | 310 | 290 |\n| Moorings | 120 | 110 |',
        heading_path: headingPath,
        page_start: 7,
        page_end: 7,
      })
      .select('id')
      .single<{ id: string }>()
    expect(chunk.error).toBeNull()
    const question = 'What did Quayside earn from moorings in 2024?'
    const found = (await sources(question)) as (Source & { heading_path: string[] })[]
    expect(found[0]).toMatchObject({ chunk_id: chunk.data!.id, heading_path: headingPath })

    const conversationId = await createConversation(stack, people.viewer, workspaceId)
    const reply = await ask(stack, people.viewer, {
      conversation_id: conversationId,
      content: question,
    })
    const done = reply.events.find((e) => e.event === 'done')!
    const message = done.data.message as { content: string; citations: Source[] }
    // The rows alone name neither the port nor the year: without the path, no answer.
    expect(message.content).toBe('A table on page 7 matches the question: show passage [1].')
    expect(message.citations[0]!.chunk_id).toBe(chunk.data!.id)
    expect(message.citations[0]).not.toHaveProperty('heading_path')
  })

  it('gives a non-member nothing', async () => {
    const { data, error } = await clientFor(stack, people.outsider).rpc('chat_sources', {
      workspace_id: workspaceId,
      query: 'harbor dredging',
      match_count: 8,
    })
    expect(error).toBeNull()
    expect(data).toEqual([])
  })
})
