import { describe, expect, it } from 'vitest'
import type { Message } from '../api/types'
import { regenerateBlock, SAME_ANSWER } from './regenerate-block'

const answer = (fields: Partial<Message> = {}): Message => ({
  id: 'a',
  conversation_id: 'c',
  role: 'assistant',
  content: 'It rained [1].',
  citations: [],
  status: 'complete',
  error: null,
  model: null,
  extractive: true,
  created_by: null,
  created_at: '2026-11-24T10:00:00.000000+00:00',
  feedback: null,
  ...fields,
})

describe('regenerateBlock', () => {
  it('blocks an offline answer when no model is chosen and no document changed since', () => {
    const library = { chatModel: null, changedAt: '2026-11-24T09:59:59+00:00' }
    expect(regenerateBlock(answer(), library)).toBe(SAME_ANSWER)
    expect(regenerateBlock(answer(), { chatModel: null, changedAt: null })).toBe(SAME_ANSWER)
  })

  it('allows it once a document changed, a model is chosen, or the answer is not a complete offline one', () => {
    const later = { chatModel: null, changedAt: '2026-11-24T10:00:01+00:00' }
    expect(regenerateBlock(answer(), later)).toBeNull()
    expect(regenerateBlock(answer(), { chatModel: 'openai:gpt', changedAt: null })).toBeNull()
    const quiet = { chatModel: null, changedAt: null }
    expect(regenerateBlock(answer({ extractive: false }), quiet)).toBeNull()
    expect(regenerateBlock(answer({ status: 'stopped' }), quiet)).toBeNull()
    expect(regenerateBlock(answer(), undefined)).toBeNull()
  })
})
