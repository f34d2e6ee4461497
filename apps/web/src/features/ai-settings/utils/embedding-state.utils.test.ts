import { describe, expect, it } from 'vitest'
import { embeddingState } from './embedding-state'

const active = { embeddingModel: 'openai:a', pendingEmbeddingModel: null }
const counts = { chunks: 10, searchable: 10, moving: 0, pending: 0 }

describe('embeddingState', () => {
  it('is embedding while the active model lacks vectors search could read', () => {
    expect(embeddingState(active, { ...counts, searchable: 4 })).toEqual({
      kind: 'embedding',
      chunks: 10,
      done: 4,
    })
  })

  it('counts vectors still moving in as done: search reads them where they are', () => {
    expect(embeddingState(active, { ...counts, moving: 6 })).toEqual({
      kind: 'moving',
      chunks: 10,
      moving: 6,
    })
  })

  it('is rebuilding while another model is built, whatever the active one has', () => {
    const switching = { ...active, pendingEmbeddingModel: 'openai:b' }
    expect(embeddingState(switching, { ...counts, searchable: 7, pending: 3 })).toEqual({
      kind: 'rebuilding',
      chunks: 10,
      done: 3,
      searchable: 7,
    })
    expect(embeddingState(switching, { ...counts, pending: 10 })).toEqual({ kind: 'done' })
  })

  it('is done when every vector is in place, with no model, or with no chunks', () => {
    expect(embeddingState(active, counts)).toEqual({ kind: 'done' })
    expect(
      embeddingState(
        { embeddingModel: null, pendingEmbeddingModel: null },
        { ...counts, searchable: 0 },
      ),
    ).toEqual({ kind: 'done' })
    expect(embeddingState(active, { chunks: 0, searchable: 0, moving: 0, pending: 0 })).toEqual({
      kind: 'done',
    })
  })
})
