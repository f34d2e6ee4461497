import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ask, createConversation } from './chat-client.ts'
import { clientFor, startStack, type User } from './stack.ts'
import { addReadyDocument, createPeople, createWorld, type People } from './world.ts'

// Conversations and answer feedback under RLS, through supabase-js as each kind of caller;
// answers come from the real chat function (offline).
const stack = await startStack()
afterAll(() => stack.stop())

let people: People
let workspaceId: string

const as = (user: User) => clientFor(stack, user)

/** An answered question in a new conversation; returns the ids. */
async function answered(user: User, visibility: 'private' | 'shared') {
  const conversationId = await createConversation(stack, user, workspaceId, visibility)
  const reply = await ask(stack, user, { conversation_id: conversationId, content: 'ferns' })
  return { conversationId, answerId: reply.events[0]!.data.assistant_message_id as string }
}

beforeAll(async () => {
  people = await createPeople(stack)
  workspaceId = (await createWorld(stack, people)).workspaceId
  await addReadyDocument(stack, people.editor, workspaceId, 'Herbarium notes', [
    'Pressed ferns were mounted on acid-free card and labelled with the collector.',
  ])
})

describe('conversations', () => {
  it('are started by members, for themselves, and not by outsiders', async () => {
    const mine = await as(people.viewer)
      .from('conversations')
      .insert({ workspace_id: workspaceId, title: 'Ferns' })
      .select()
      .single()
    expect(mine.error).toBeNull()
    expect(mine.data).toMatchObject({ visibility: 'private', created_by: people.viewer.id })
    const outsider = await as(people.outsider)
      .from('conversations')
      .insert({ workspace_id: workspaceId, title: 'Sneaky' })
    expect(outsider.error).toMatchObject({ code: '42501' })
    const forged = await as(people.viewer)
      .from('conversations')
      .insert({ workspace_id: workspaceId, title: 'Forged', created_by: people.owner.id })
    expect(forged.error).toMatchObject({ code: '42501' })
  })

  it('are renamed, shared and deleted by their creator only', async () => {
    const id = await createConversation(stack, people.editor, workspaceId, 'shared')
    const byOther = await as(people.owner)
      .from('conversations')
      .update({ title: 'Taken over' })
      .eq('id', id)
      .select()
    expect(byOther.data).toEqual([])
    const renamed = await as(people.editor)
      .from('conversations')
      .update({ title: 'Renamed', visibility: 'private' })
      .eq('id', id)
      .select('title, visibility')
      .single()
    expect(renamed.data).toEqual({ title: 'Renamed', visibility: 'private' })
    const blank = await as(people.editor).from('conversations').update({ title: '  ' }).eq('id', id)
    expect(blank.error).toMatchObject({ code: '23514' })
    const deletedByOther = await as(people.owner)
      .from('conversations')
      .delete()
      .eq('id', id)
      .select()
    expect(deletedByOther.data).toEqual([])
    const deleted = await as(people.editor).from('conversations').delete().eq('id', id).select('id')
    expect(deleted.data).toEqual([{ id }])
  })

  it('take their messages with them when deleted', async () => {
    const { conversationId } = await answered(people.editor, 'private')
    await as(people.editor).from('conversations').delete().eq('id', conversationId)
    const { rows } = await stack.db.pg.query(
      'select count(*)::int as n from public.messages where conversation_id = $1',
      [conversationId],
    )
    expect(rows).toEqual([{ n: 0 }])
  })

  it('move to the top of the list when a question is asked', async () => {
    const older = await createConversation(stack, people.viewer, workspaceId)
    const newer = await createConversation(stack, people.viewer, workspaceId)
    await ask(stack, people.viewer, { conversation_id: older, content: 'ferns' })
    const { data } = await as(people.viewer)
      .from('conversations')
      .select('id')
      .in('id', [older, newer])
      .order('updated_at', { ascending: false })
    expect(data!.map((c) => c.id)).toEqual([older, newer])
  })
})

describe('feedback on answers', () => {
  it('is given by members who see the answer, once each, and read back only by its author', async () => {
    const { answerId } = await answered(people.editor, 'shared')
    for (const [user, rating] of [
      [people.editor, 1],
      [people.viewer, -1],
    ] as const) {
      const { error } = await as(user)
        .from('message_feedback')
        .insert({ message_id: answerId, rating, comment: 'noted' })
      expect(error).toBeNull()
    }
    const twice = await as(people.viewer)
      .from('message_feedback')
      .insert({ message_id: answerId, rating: 1 })
    expect(twice.error).toMatchObject({ code: '23505' })
    const changed = await as(people.viewer)
      .from('message_feedback')
      .upsert({ message_id: answerId, user_id: people.viewer.id, rating: 1, comment: 'better' })
      .select('rating, comment')
    expect(changed.data).toEqual([{ rating: 1, comment: 'better' }])
    // The upsert the web app sends, without the user id (it defaults to the caller).
    const again = await as(people.viewer)
      .from('message_feedback')
      .upsert(
        { message_id: answerId, rating: -1, comment: null },
        { onConflict: 'message_id,user_id' },
      )
      .select('rating, comment')
    expect(again.data).toEqual([{ rating: -1, comment: null }])
    const seen = await as(people.viewer).from('message_feedback').select('user_id')
    expect(seen.data).toEqual([{ user_id: people.viewer.id }])
  })

  it('cannot be given on answers one cannot see, or on questions', async () => {
    const { conversationId, answerId } = await answered(people.editor, 'private')
    for (const user of [people.viewer, people.outsider]) {
      const { error } = await as(user)
        .from('message_feedback')
        .insert({ message_id: answerId, rating: 1 })
      expect(error).toMatchObject({ code: '42501' })
    }
    const { rows } = await stack.db.pg.query<{ id: string }>(
      `select id from public.messages where conversation_id = $1 and role = 'user'`,
      [conversationId],
    )
    const onQuestion = await as(people.editor)
      .from('message_feedback')
      .insert({ message_id: rows[0]!.id, rating: 1 })
    expect(onQuestion.error).toMatchObject({ code: '42501' })
    // Nor moved there from an answer one can see.
    const visible = await answered(people.viewer, 'shared')
    await as(people.viewer)
      .from('message_feedback')
      .insert({ message_id: visible.answerId, rating: 1 })
    const moved = await as(people.viewer)
      .from('message_feedback')
      .update({ message_id: answerId })
      .eq('message_id', visible.answerId)
    expect(moved.error).toMatchObject({ code: '42501' })
    const badRating = await as(people.editor)
      .from('message_feedback')
      .insert({ message_id: answerId, rating: 5 })
    expect(badRating.error).toMatchObject({ code: '23514' })
  })
})
