import { describe, expect, it } from 'vitest'
import type { Message } from '../api/types'
import { type LiveAnswer, withLiveAnswer } from './live-answer'

const row = (id: string, role: Message['role'], fields: Partial<Message> = {}): Message => ({
  id,
  conversation_id: 'c',
  role,
  content: `${id} text`,
  citations: [],
  status: 'complete',
  error: null,
  model: null,
  extractive: false,
  created_by: null,
  created_at: '2026-01-01T00:00:00Z',
  feedback: null,
  ...fields,
})

const live = (fields: Partial<LiveAnswer> = {}): LiveAnswer => ({
  messageId: null,
  userMessageId: null,
  question: null,
  text: '',
  sources: [],
  extractive: false,
  replacing: null,
  error: null,
  stopped: false,
  ...fields,
})

const source = { n: 1, chunk_id: 'k', document_id: 'd' }

describe('withLiveAnswer', () => {
  const history = [row('u1', 'user'), row('a1', 'assistant')]

  it('returns the stored rows when nothing streams', () => {
    expect(withLiveAnswer(history, null)).toBe(history)
  })

  it('shows a sent question and its answer before they are stored', () => {
    const shown = withLiveAnswer(history, live({ question: 'Why?', text: 'Because' }))
    expect(shown.map((m) => [m.id, m.role, m.content, m.status])).toEqual([
      ['u1', 'user', 'u1 text', 'complete'],
      ['a1', 'assistant', 'a1 text', 'complete'],
      ['pending-question', 'user', 'Why?', 'complete'],
      ['pending-answer', 'assistant', 'Because', 'streaming'],
    ])
  })

  it('lays the live text over its stored row only while that row is streaming', () => {
    const stored = [
      ...history,
      row('u2', 'user'),
      row('a2', 'assistant', { content: '', status: 'streaming' }),
    ]
    const answer = live({
      messageId: 'a2',
      userMessageId: 'u2',
      question: 'Q',
      text: 'So far [1]',
      sources: [source],
    })
    const shown = withLiveAnswer(stored, answer)
    expect(shown.map((m) => m.id)).toEqual(['u1', 'a1', 'u2', 'a2'])
    expect(shown[3]).toMatchObject({ content: 'So far [1]', citations: [source] })

    const done = stored.map((m) =>
      m.id === 'a2' ? { ...m, content: 'Final', status: 'complete' as const } : m,
    )
    expect(withLiveAnswer(done, answer)[3]).toMatchObject({ content: 'Final', citations: [] })
  })

  it('hides the answer being regenerated and shows a failure with its message', () => {
    const shown = withLiveAnswer(history, live({ replacing: 'a1', error: 'Rate limited' }))
    expect(shown.map((m) => [m.id, m.status, m.error])).toEqual([
      ['u1', 'complete', null],
      ['pending-answer', 'failed', 'Rate limited'],
    ])
  })
})

describe('withLiveAnswer after Stop', () => {
  const history = [row('u1', 'user'), row('a1', 'assistant')]

  it('keeps the question on screen, stopped, when the function never named its rows', () => {
    const shown = withLiveAnswer(history, live({ question: 'Why?', stopped: true }))
    expect(shown.slice(2).map((m) => [m.role, m.content, m.status])).toEqual([
      ['user', 'Why?', 'complete'],
      ['assistant', '', 'stopped'],
    ])
  })

  it('shows the stored turn instead once the function has written it', () => {
    const stored = [...history, row('u2', 'user', { content: 'Why?' }), row('a2', 'assistant')]
    expect(withLiveAnswer(stored, live({ question: 'Why?', stopped: true }))).toBe(stored)
  })

  it('marks the stored row still streaming as stopped', () => {
    const stored = [...history, row('u2', 'user'), row('a2', 'assistant', { status: 'streaming' })]
    const shown = withLiveAnswer(
      stored,
      live({ messageId: 'a2', userMessageId: 'u2', text: 'Half', stopped: true }),
    )
    expect(shown.at(-1)).toMatchObject({ id: 'a2', content: 'Half', status: 'stopped' })
  })
})
