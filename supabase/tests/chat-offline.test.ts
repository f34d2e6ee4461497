import type { RealtimeChannel } from '@supabase/supabase-js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ask, createConversation, eventNames, storedMessages, streamedText } from './chat-client.ts'
import { clientFor, startStack } from './stack.ts'
import { addReadyDocument, createPeople, createWorld, type People } from './world.ts'

// The chat function with no AI provider configured: answers are extracted from the
// documents, cited, streamed and stored, through a real localbase.
const stack = await startStack()
afterAll(() => stack.stop())

let people: People
let workspaceId: string
let herbarium: { documentId: string; chunkIds: string[] }

const herbariumTexts = [
  'Pressed ferns were mounted on acid-free card and labelled with the collector. The card came from a mill in Kent.',
  'The mangrove samples from the estuary were dried slowly over three weeks to keep their leaves intact. Fast drying made the leaves curl.',
  'Mosses need no pressing; they are kept loose in paper packets.',
]

beforeAll(async () => {
  people = await createPeople(stack)
  workspaceId = (await createWorld(stack, people)).workspaceId
  herbarium = await addReadyDocument(
    stack,
    people.editor,
    workspaceId,
    'Herbarium notes',
    herbariumTexts,
  )
  await addReadyDocument(stack, people.editor, workspaceId, 'Voyage log', [
    'We anchored near the estuary at dawn; the crew went ashore for water.',
    'Storms kept the ship in harbour for a week.',
  ])
})

describe('an offline answer', () => {
  it('streams a cited extractive answer and stores both messages with the citations', async () => {
    const conversationId = await createConversation(stack, people.viewer, workspaceId)
    const question = 'How were the mangrove samples dried?'
    const reply = await ask(stack, people.viewer, {
      conversation_id: conversationId,
      content: question,
    })
    expect(reply.status).toBe(200)
    expect(eventNames(reply.events)).toEqual(['meta', 'sources', 'delta', 'done'])

    const meta = reply.events[0]!.data
    expect(meta).toMatchObject({ model: null, extractive: true })
    const sources = reply.events[1]!.data.sources as Record<string, unknown>[]
    expect(sources[0]).toMatchObject({
      n: 1,
      chunk_id: herbarium.chunkIds[1],
      title: 'Herbarium notes',
    })

    const text = streamedText(reply.events)
    // "Fast drying made the leaves curl" shares only "dried" with the question: below the bar.
    expect(text).toBe(
      'The mangrove samples from the estuary were dried slowly over three weeks to keep their leaves intact [1].',
    )
    const done = reply.events.at(-1)!.data.message as Record<string, unknown>
    expect(done).toMatchObject({
      id: meta.assistant_message_id,
      content: text,
      status: 'complete',
      model: null,
      extractive: true,
    })

    // How long each step took, for bench:chat.
    const timings = reply.events.at(-1)!.data.timings as Record<string, number>
    for (const step of ['auth_ms', 'rewrite_ms', 'retrieval_ms', 'prompt_ms', 'provider_ms']) {
      expect(timings[step]).toBeGreaterThanOrEqual(0)
    }
    expect(timings.first_delta_ms).toBeLessThanOrEqual(timings.total_ms!)

    const [asked, answered] = await storedMessages(stack, conversationId)
    expect(asked).toMatchObject({
      id: meta.user_message_id,
      role: 'user',
      content: question,
      created_by: people.viewer.id,
      status: 'complete',
    })
    expect(answered).toMatchObject({
      id: meta.assistant_message_id,
      role: 'assistant',
      content: text,
    })
    expect(answered!.citations).toEqual([
      {
        n: 1,
        chunk_id: herbarium.chunkIds[1],
        document_id: herbarium.documentId,
        title: 'Herbarium notes',
        document_type: 'other',
        page_start: 2,
        page_end: 3,
        char_start: null,
        char_end: null,
        quote:
          'The mangrove samples from the estuary were dried slowly over three weeks to keep their leaves intact.',
        supported: true,
      },
    ])
  })
})

describe('an offline answer from two documents', () => {
  it('groups its sentences under each title, numbered in the order they are first cited', async () => {
    const conversationId = await createConversation(stack, people.viewer, workspaceId)
    const reply = await ask(stack, people.viewer, {
      conversation_id: conversationId,
      content: 'What happened at the estuary?',
    })
    const text = streamedText(reply.events)
    expect(text).toMatch(/^\*\*(Herbarium notes|Voyage log)\*\*\n\n/)
    expect(text).toContain('**Herbarium notes**\n\nThe mangrove samples from the estuary')
    expect(text).toContain('**Voyage log**\n\nWe anchored near the estuary at dawn')
    const firstUse = [...new Set([...text.matchAll(/\[(\d+)\]/g)].map((m) => Number(m[1])))]
    expect(firstUse).toEqual([1, 2])

    // The sources event lists the cited passages first, in the answer's order; the stored
    // citations (the sources panel) count and order as the answer does.
    const sources = reply.events[1]!.data.sources as { n: number; chunk_id: string }[]
    expect(sources.map((s) => s.n)).toEqual(sources.map((_, i) => i + 1))
    const [, answered] = await storedMessages(stack, conversationId)
    expect(answered!.content).toBe(text)
    const citations = answered!.citations as { n: number; chunk_id: string; title: string }[]
    expect(citations.map((c) => c.n)).toEqual([1, 2])
    expect(citations.map((c) => c.chunk_id)).toEqual(sources.slice(0, 2).map((s) => s.chunk_id))
    expect(text.indexOf(citations[0]!.title)).toBeLessThan(text.indexOf(citations[1]!.title))
  })
})

describe('a question no passage answers', () => {
  it('says so, and stores the closest passages as cards to open', async () => {
    const conversationId = await createConversation(stack, people.viewer, workspaceId)
    // Each passage shares one word with the question: none clears the relevance bar.
    const reply = await ask(stack, people.viewer, {
      conversation_id: conversationId,
      content: 'ferns storms',
    })
    expect(streamedText(reply.events)).toBe("I couldn't find a passage that answers this.")
    const [, answered] = await storedMessages(stack, conversationId)
    expect(answered).toMatchObject({ status: 'complete', extractive: true })
    const cards = answered!.citations as Record<string, unknown>[]
    expect(cards.map((c) => [c.n, c.title, c.quote, c.supported])).toEqual(
      expect.arrayContaining([
        [
          expect.any(Number),
          'Herbarium notes',
          'Pressed ferns were mounted on acid-free card and labelled with the collector.',
          null,
        ],
        [expect.any(Number), 'Voyage log', 'Storms kept the ship in harbour for a week.', null],
      ]),
    )
    expect(cards.map((c) => c.n)).toEqual(cards.map((_, i) => i + 1))
  })

  it('has no cards when the library holds nothing that matches', async () => {
    const conversationId = await createConversation(stack, people.viewer, workspaceId)
    const reply = await ask(stack, people.viewer, {
      conversation_id: conversationId,
      content: 'quantum chromodynamics',
    })
    expect(streamedText(reply.events)).toBe("I couldn't find a passage that answers this.")
    const [, answered] = await storedMessages(stack, conversationId)
    expect(answered!.citations).toEqual([])
  })
})

describe('regenerate', () => {
  it('replaces the latest answer to the same question, and refuses an older one', async () => {
    const conversationId = await createConversation(stack, people.editor, workspaceId)
    const first = await ask(stack, people.editor, {
      conversation_id: conversationId,
      content: 'ferns card',
    })
    const second = await ask(stack, people.editor, {
      conversation_id: conversationId,
      content: 'mosses',
    })
    const oldAnswer = second.events[0]!.data.assistant_message_id as string
    const older = first.events[0]!.data.assistant_message_id as string

    const refused = await ask(stack, people.editor, {
      conversation_id: conversationId,
      regenerate: older,
    })
    expect(refused).toMatchObject({
      status: 400,
      body: { message: expect.stringContaining('latest answer') },
    })

    const again = await ask(stack, people.editor, {
      conversation_id: conversationId,
      regenerate: oldAnswer,
    })
    expect(again.events[0]!.data).toMatchObject({
      user_message_id: second.events[0]!.data.user_message_id,
    })
    const rows = await storedMessages(stack, conversationId)
    expect(rows.map((r) => [r.role, r.content])).toEqual([
      ['user', 'ferns card'],
      ['assistant', streamedText(first.events)],
      ['user', 'mosses'],
      ['assistant', streamedText(again.events)],
    ])
    expect(rows[3]!.id).toBe(again.events[0]!.data.assistant_message_id)
    expect(rows.some((r) => r.id === oldAnswer)).toBe(false)
  })
})

describe('an answer abandoned mid-stream', () => {
  it('is marked failed by the next turn once it is older than any function may run', async () => {
    const conversationId = await createConversation(stack, people.editor, workspaceId)
    const { rows } = await stack.db.pg.query<{ id: string }>(
      `insert into public.messages (conversation_id, role, status, created_at)
       values ($1, 'assistant', 'streaming', now() - interval '20 minutes'),
              ($1, 'assistant', 'streaming', now() - interval '1 minute')
       returning id`,
      [conversationId],
    )
    await ask(stack, people.editor, { conversation_id: conversationId, content: 'ferns' })
    const stored = await storedMessages(stack, conversationId)
    const status = (id: string) => stored.find((m) => m.id === id)
    expect(status(rows[0]!.id)).toMatchObject({
      status: 'failed',
      error: 'The answer was interrupted before it finished.',
    })
    expect(status(rows[1]!.id)).toMatchObject({ status: 'streaming' })
  })
})

describe('a shared conversation live', () => {
  it('streams the answer to another member on the conversation channel', async () => {
    const conversationId = await createConversation(stack, people.owner, workspaceId, 'shared')
    const watcher = clientFor(stack, people.viewer)
    await watcher.realtime.setAuth(people.viewer.jwt)
    const seen: { event: string; payload: Record<string, unknown> }[] = []
    const channel = await new Promise<RealtimeChannel>((resolve, reject) => {
      const ch = watcher
        .channel(`conversation:${conversationId}`, { config: { private: true } })
        .on('broadcast', { event: '*' }, ({ event, payload }) => seen.push({ event, payload }))
        .subscribe((status, error) => {
          if (status === 'SUBSCRIBED') resolve(ch)
          else if (status !== 'CLOSED') reject(error ?? new Error(status))
        })
    })
    try {
      const reply = await ask(stack, people.owner, {
        conversation_id: conversationId,
        content: 'How were the mangrove samples dried?',
      })
      for (let i = 0; i < 100 && seen.at(-1)?.event !== 'message-done'; i++) {
        await new Promise((r) => setTimeout(r, 50))
      }
      const { user_message_id: userMessageId, assistant_message_id: messageId } =
        reply.events[0]!.data
      expect(seen[0]).toEqual({
        event: 'message-start',
        payload: { message_id: messageId, user_message_id: userMessageId },
      })
      expect(seen.at(-1)).toEqual({ event: 'message-done', payload: { message_id: messageId } })
      const deltas = seen.filter((s) => s.event === 'delta')
      expect(deltas.every((d) => d.payload.message_id === messageId)).toBe(true)
      expect(deltas.map((d) => d.payload.text).join('')).toBe(streamedText(reply.events))
    } finally {
      await watcher.removeChannel(channel)
    }
  })

  it('keeps a private conversation channel from other members', async () => {
    const conversationId = await createConversation(stack, people.owner, workspaceId)
    const watcher = clientFor(stack, people.viewer)
    await watcher.realtime.setAuth(people.viewer.jwt)
    const status = await new Promise<string>((resolve) => {
      watcher
        .channel(`conversation:${conversationId}`, { config: { private: true } })
        .subscribe((s) => {
          if (s !== 'SUBSCRIBED' && s !== 'CLOSED') resolve(s)
          else if (s === 'SUBSCRIBED') resolve(s)
        })
    })
    expect(status).toBe('CHANNEL_ERROR')
    await watcher.removeAllChannels()
  })
})
