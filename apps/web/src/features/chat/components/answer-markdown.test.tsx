import { QueryClientProvider } from '@tanstack/react-query'
import { render, screen, within } from '@testing-library/react'
import { Tooltip } from 'radix-ui'
import { createMemoryRouter, RouterProvider } from 'react-router'
import { describe, expect, it } from 'vitest'
import { makeQueryClient } from '@/lib/query-client'
import type { Citation } from '../api/types'
import { AnswerMarkdown } from './answer-markdown'

const citations: Citation[] = [
  {
    n: 1,
    chunk_id: 'k1',
    document_id: 'd1',
    title: 'Field notes',
    page_start: 2,
    page_end: 3,
    quote: 'Ferns dry slowly.',
    supported: true,
  },
  {
    n: 2,
    chunk_id: 'k2',
    document_id: 'd2',
    title: 'Memo',
    page_start: null,
    quote: 'Unrelated.',
    supported: false,
  },
]

function renderAnswer(content: string) {
  const router = createMemoryRouter([
    {
      path: '*',
      element: (
        <Tooltip.Provider>
          <AnswerMarkdown content={content} citations={citations} workspaceId="w1" messageId="m1" />
        </Tooltip.Provider>
      ),
    },
  ])
  return render(
    <QueryClientProvider client={makeQueryClient()}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  )
}

describe('AnswerMarkdown', () => {
  it('renders citations as chips linking to the passage, marking unsupported ones', () => {
    renderAnswer('Ferns dry **slowly** [1]. Whales sing [2]. Unknown [7].')
    const chips = screen.getAllByTestId('citation-chip')
    expect(chips.map((chip) => chip.getAttribute('href'))).toEqual([
      '/w/w1/documents/d1?chunk=k1',
      '/w/w1/documents/d2?chunk=k2',
    ])
    expect(chips[0]).toHaveAccessibleName('Source 1: Field notes, pp. 2–3')
    expect(chips[1]).toHaveAccessibleName('Source 2: Memo, not supported by the cited passage')
    expect(screen.getByText('[7]')).toHaveAttribute('title', 'No such source')
    expect(screen.getByText('slowly').tagName).toBe('STRONG')
  })

  it('renders no raw HTML, no images and no script links; web links open safely', () => {
    const { container } = renderAnswer(
      '<img src=x onerror="alert(1)"> <b>bold</b>\n\n![pixel](https://tracker.test/p.gif) [bad](javascript:alert(1)) [site](https://example.com) [mail](mailto:a@example.com)',
    )
    expect(container.querySelector('img')).toBeNull()
    expect(container.querySelector('b')).toBeNull()
    // Raw HTML is shown as the text it is, never as markup.
    expect(container.querySelector('[onerror]')).toBeNull()
    expect(container).toHaveTextContent('<b>bold</b>')
    const links = within(container).getAllByRole('link')
    expect(links.map((link) => link.getAttribute('href'))).toEqual([
      'https://example.com',
      'mailto:a@example.com',
    ])
    for (const link of links) {
      expect(link).toHaveAttribute('rel', 'noopener noreferrer')
      expect(link).toHaveAttribute('target', '_blank')
    }
    expect(screen.getByText('bad').closest('a')).toBeNull()
  })
})
