import { render, screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { EmbeddingProgress } from './embedding-progress'

const shown = (state: Parameters<typeof EmbeddingProgress>[0]['state']) => {
  render(<EmbeddingProgress state={state} error={null} />)
  return { text: screen.getByText(/chunks/).textContent, bar: screen.getByRole('progressbar') }
}

describe('EmbeddingProgress', () => {
  it('says search is lexical for the chunks the active model has no vector for', () => {
    const { text, bar } = shown({ kind: 'embedding', chunks: 1200, done: 300 })
    expect(text).toBe('Embedding 300 of 1,200 chunks — search is lexical for the rest until done.')
    expect(bar).toHaveAccessibleName('Embedding progress')
  })

  it('says every chunk is searched by meaning while a promotion’s vectors move in', () => {
    const { text, bar } = shown({ kind: 'moving', chunks: 1200, moving: 900 })
    expect(text).toBe(
      'All 1,200 chunks are embedded and searched by meaning; 900 vectors of the new model are still being moved into place.',
    )
    expect(text).not.toMatch(/lexical/)
    expect(bar).toHaveAccessibleName('Moving vectors into place')
  })

  it('says what serves search while another model is built', () => {
    expect(shown({ kind: 'rebuilding', chunks: 10, done: 4, searchable: 10 }).text).toBe(
      'Re-embedding 4 of 10 chunks with the new model — the current model serves search until done.',
    )
  })

  it('says which chunks only keywords find while another model is built', () => {
    expect(shown({ kind: 'rebuilding', chunks: 10, done: 4, searchable: 6 }).text).toBe(
      'Re-embedding 4 of 10 chunks with the new model — until done, the current model serves search for 6 of them, and search is lexical for the rest.',
    )
  })
})
