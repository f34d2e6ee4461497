import { describe, expect, it } from 'vitest'
import { supabase } from '@/lib/supabase'
import { signUpAs } from '@/testing/users'
import { type ChatEvent, ChatRequestError, streamChat } from './stream-chat'

async function conversationWithDocument() {
  await signUpAs('asker')
  const { data: workspace, error } = await supabase
    .from('workspaces')
    .insert({ name: 'Notes' })
    .select()
    .single()
  if (error) throw error
  const { data: document } = await supabase
    .from('documents')
    .insert({ workspace_id: workspace.id, title: 'Pond log', status: 'ready', stage: 'ready' })
    .select('id')
    .single()
  await supabase.from('chunks').insert({
    document_id: document!.id,
    workspace_id: workspace.id,
    ordinal: 0,
    content: 'The ducks were counted at dawn on the north pond.',
  })
  const { data: conversation } = await supabase
    .from('conversations')
    .insert({ workspace_id: workspace.id })
    .select('id')
    .single()
  return conversation!.id
}

describe('streamChat', () => {
  it('yields the function’s events in order, parsed', async () => {
    const id = await conversationWithDocument()
    const events: ChatEvent[] = []
    const stream = streamChat(
      { conversation_id: id, content: 'When were the ducks counted?' },
      new AbortController().signal,
    )
    for await (const event of stream) events.push(event)
    const types = events.map((e) => e.type)
    expect(types[0]).toBe('meta')
    expect(types[1]).toBe('sources')
    expect(types.at(-1)).toBe('done')
    expect(types.slice(2, -1).every((t) => t === 'delta')).toBe(true)
    const [meta, sources] = events
    expect(meta).toMatchObject({ type: 'meta', extractive: true })
    expect(sources).toMatchObject({ type: 'sources', sources: [{ n: 1, title: 'Pond log' }] })
    const text = events.map((e) => (e.type === 'delta' ? e.text : '')).join('')
    expect(text).toContain('counted at dawn')
  })

  it('throws the refusal before the stream as a ChatRequestError with its status and message', async () => {
    await signUpAs('stranger')
    const refused = streamChat(
      { conversation_id: crypto.randomUUID(), content: 'Hello?' },
      new AbortController().signal,
    ).next()
    await expect(refused).rejects.toBeInstanceOf(ChatRequestError)
    await expect(refused).rejects.toMatchObject({
      status: 404,
      code: 'not_found',
      message: 'No such conversation, or you cannot see it',
    })
  })
})
