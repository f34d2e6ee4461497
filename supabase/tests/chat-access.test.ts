import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ask, createConversation, storedMessages } from './chat-client.ts'
import { clientFor, createUser, startStack, type User } from './stack.ts'
import { addReadyDocument, createPeople, createWorld, type People } from './world.ts'

// Who may call the chat function and read what it stores: validation, 401/404, the rate
// limit, and RLS on conversations and messages (offline answers, real localbase).
const stack = await startStack()
afterAll(() => stack.stop())

let people: People
let workspaceId: string

const herbariumTexts = [
  'Pressed ferns were mounted on acid-free card and labelled with the collector. The card came from a mill in Kent.',
  'The mangrove samples from the estuary were dried slowly over three weeks to keep their leaves intact. Fast drying made the leaves curl.',
  'Mosses need no pressing; they are kept loose in paper packets.',
]

beforeAll(async () => {
  people = await createPeople(stack)
  workspaceId = (await createWorld(stack, people)).workspaceId
  await addReadyDocument(stack, people.editor, workspaceId, 'Herbarium notes', herbariumTexts)
  await addReadyDocument(stack, people.editor, workspaceId, 'Voyage log', [
    'We anchored near the estuary at dawn; the crew went ashore for water.',
    'Storms kept the ship in harbour for a week.',
  ])
})

describe('who may ask', () => {
  it('answers bad input with 400 and what is wrong, and other methods with 405', async () => {
    const conversationId = await createConversation(stack, people.viewer, workspaceId)
    const cases: [Record<string, unknown>, string][] = [
      [{ content: 'hi' }, 'conversation_id must be a UUID'],
      [{ conversation_id: 'nope', content: 'hi' }, 'conversation_id must be a UUID'],
      [{ conversation_id: conversationId }, 'content is required'],
      [{ conversation_id: conversationId, content: '  ' }, 'content must not be empty'],
      [{ conversation_id: conversationId, content: 'x'.repeat(4001) }, 'at most 4000'],
      [{ conversation_id: conversationId, regenerate: 'x' }, 'regenerate must be the id'],
    ]
    for (const [body, message] of cases) {
      const reply = await ask(stack, people.viewer, body)
      expect(reply.status).toBe(400)
      expect(reply.body).toMatchObject({ code: 'invalid_input' })
      expect(reply.body!.message).toContain(message)
    }
    const get = await fetch(`${stack.url}/functions/v1/chat`, {
      headers: { Authorization: `Bearer ${people.viewer.jwt}` },
    })
    expect(get.status).toBe(405)
    expect(await storedMessages(stack, conversationId)).toEqual([])
  })

  it('refuses anonymous callers with 401, and outsiders and strangers to a private conversation with 404', async () => {
    const conversationId = await createConversation(stack, people.owner, workspaceId)
    const body = { conversation_id: conversationId, content: 'mangrove' }
    expect(await ask(stack, undefined, body)).toMatchObject({
      status: 401,
      body: { code: 'unauthorized' },
    })
    for (const user of [people.outsider, people.viewer]) {
      expect(await ask(stack, user, body)).toMatchObject({
        status: 404,
        body: { code: 'not_found', message: 'No such conversation, or you cannot see it' },
      })
    }
    expect(await storedMessages(stack, conversationId)).toEqual([])
  })

  it('lets any member ask in a shared conversation', async () => {
    const conversationId = await createConversation(stack, people.owner, workspaceId, 'shared')
    const reply = await ask(stack, people.viewer, {
      conversation_id: conversationId,
      content: 'mosses',
    })
    expect(reply.events.at(-1)!.event).toBe('done')
    const [asked] = await storedMessages(stack, conversationId)
    expect(asked).toMatchObject({ role: 'user', created_by: people.viewer.id })
  })

  it('limits each user to 10 questions a minute with 429', async () => {
    const asker = await createUser(stack, 'asker')
    await stack.db.pg.query(
      `insert into public.workspace_members (workspace_id, user_id, role) values ($1, $2, 'viewer')`,
      [workspaceId, asker.id],
    )
    const conversationId = await createConversation(stack, asker, workspaceId)
    const body = { conversation_id: conversationId, content: 'ferns' }
    for (let i = 0; i < 10; i++) expect((await ask(stack, asker, body)).status).toBe(200)
    const refused = await fetch(`${stack.url}/functions/v1/chat`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${asker.jwt}`, 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    })
    expect(refused.status).toBe(429)
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0)
    expect(await refused.json()).toMatchObject({
      code: 'rate_limited',
      message: expect.stringContaining('at most 10 questions a minute'),
    })
    expect(await storedMessages(stack, conversationId)).toHaveLength(20)
    // Someone else is not held back.
    const other = await createConversation(stack, people.editor, workspaceId)
    expect(
      (await ask(stack, people.editor, { conversation_id: other, content: 'ferns' })).status,
    ).toBe(200)
  })
})

describe('conversations and messages under RLS', () => {
  it('hide private conversations from other members and everything from outsiders', async () => {
    const privateId = await createConversation(stack, people.editor, workspaceId)
    const sharedId = await createConversation(stack, people.editor, workspaceId, 'shared')
    for (const id of [privateId, sharedId]) {
      await ask(stack, people.editor, { conversation_id: id, content: 'storms' })
    }
    const sees = async (user: User, id: string) => {
      const client = clientFor(stack, user)
      const conversations = await client.from('conversations').select('id').eq('id', id)
      const messages = await client.from('messages').select('id').eq('conversation_id', id)
      return [conversations.data!.length, messages.data!.length]
    }
    expect(await sees(people.editor, privateId)).toEqual([1, 2])
    expect(await sees(people.viewer, privateId)).toEqual([0, 0])
    expect(await sees(people.viewer, sharedId)).toEqual([1, 2])
    expect(await sees(people.outsider, sharedId)).toEqual([0, 0])
  })

  it('let nobody write messages directly, not even in their own conversation', async () => {
    const conversationId = await createConversation(stack, people.editor, workspaceId)
    await ask(stack, people.editor, { conversation_id: conversationId, content: 'storms' })
    const client = clientFor(stack, people.editor)
    const forged = await client.from('messages').insert({
      conversation_id: conversationId,
      role: 'assistant',
      content: 'Forged answer [1].',
    })
    expect(forged.error).toMatchObject({ code: '42501' })
    const edited = await client
      .from('messages')
      .update({ content: 'Edited' })
      .eq('conversation_id', conversationId)
      .select()
    expect(edited.error).toMatchObject({ code: '42501' })
    const removed = await client
      .from('messages')
      .delete()
      .eq('conversation_id', conversationId)
      .select()
    expect(removed.error).toMatchObject({ code: '42501' })
    expect((await storedMessages(stack, conversationId)).map((m) => m.content)).not.toContain(
      'Edited',
    )
  })
})
