import { describe, expect, it } from 'vitest'
import { embeddingChange } from './embedding-change'

describe('embeddingChange', () => {
  it('builds a different model alongside the active one', () => {
    expect(embeddingChange('openai:a', 'openai:b')).toEqual({ pending_embedding_model: 'openai:b' })
  })

  it('makes the first model active at once, and turning vectors off is immediate', () => {
    expect(embeddingChange(null, 'openai:a')).toEqual({
      embedding_model: 'openai:a',
      pending_embedding_model: null,
    })
    expect(embeddingChange('openai:a', null)).toEqual({
      embedding_model: null,
      pending_embedding_model: null,
    })
  })

  it('going back to the active model cancels the one being built', () => {
    expect(embeddingChange('openai:a', 'openai:a')).toEqual({ pending_embedding_model: null })
  })
})
