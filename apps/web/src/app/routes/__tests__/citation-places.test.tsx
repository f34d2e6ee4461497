import { screen, waitFor, within } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { supabase } from '@/lib/supabase'
import { ask } from '@/testing/ask-chat'
import { renderApp } from '@/testing/render-app'
import { signUpAs } from '@/testing/users'

const PPTX = 'application/vnd.openxmlformats-officedocument.presentationml.presentation'
const dried =
  'The mangrove samples from the estuary were dried slowly over three weeks to keep their leaves intact.'

/** A presentation whose second slide the offline answer quotes, asked about in a conversation. */
async function answeredFromSlides() {
  await signUpAs('Olivia')
  const { data: workspace, error } = await supabase
    .from('workspaces')
    .insert({ name: 'Field notes' })
    .select()
    .single()
  if (error) throw error
  const { data: document, error: docError } = await supabase
    .from('documents')
    .insert({
      workspace_id: workspace.id,
      title: 'Estuary talk',
      status: 'ready',
      stage: 'ready',
      mime_type: PPTX,
    })
    .select('id')
    .single()
  if (docError) throw docError
  const { error: chunkError } = await supabase.from('chunks').insert({
    document_id: document.id,
    workspace_id: workspace.id,
    ordinal: 0,
    content: dried,
    page_start: 2,
    page_end: 2,
  })
  if (chunkError) throw chunkError
  const { data: conversation, error: chatError } = await supabase
    .from('conversations')
    .insert({ workspace_id: workspace.id, title: 'Drying' })
    .select('id')
    .single()
  if (chatError) throw chatError
  await ask(conversation.id, 'How were the mangrove samples dried?')
  return `/w/${workspace.id}/chat/${conversation.id}`
}

/**
 * Records the reads of single documents' types (the fallback for citations without one); with
 * `untyped`, the conversation's messages come back as rows stored before citations kept types.
 */
function watchTypeReads({ untyped = false } = {}) {
  const reads: string[] = []
  const fetch = globalThis.fetch
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const request = new Request(input, init)
    if (/\/rest\/v1\/documents\?select=mime_type%2Cstorage_path%2Ctitle&id=eq\./.test(request.url))
      reads.push(request.url)
    const response = await fetch(input, init)
    if (!untyped || !/\/rest\/v1\/messages\?/.test(request.url) || !response.ok) return response
    const rows = (await response.json()) as { citations?: Record<string, unknown>[] }[]
    const old = rows.map((row) => ({
      ...row,
      citations: row.citations?.map(({ document_type: _, ...citation }) => citation),
    }))
    return new Response(JSON.stringify(old), { status: response.status, headers: response.headers })
  })
  return reads
}

afterEach(() => vi.restoreAllMocks())

describe('citation places', () => {
  it('labels a presentation’s citations as slides from the first render, reading no document', async () => {
    const path = await answeredFromSlides()
    const reads = watchTypeReads()
    const { user } = renderApp(path)
    const [chip] = await screen.findAllByTestId('citation-chip')
    // Right as soon as it shows: the citation carries its document's type.
    expect(chip).toHaveAccessibleName('Source 1: Estuary talk, slide 2')

    await user.click(screen.getByText('Sources (1)'))
    const sources = screen.getByRole('list', { name: 'Sources' })
    expect(within(sources).getByRole('link')).toHaveTextContent('slide 2')
    expect(within(sources).getByRole('link')).not.toHaveTextContent('p. 2')

    await user.click(chip!)
    const panel = await screen.findByRole('dialog', { name: 'Estuary talk' })
    expect(panel).toHaveTextContent('Source 1 · slide 2')
    expect(reads).toEqual([])
  })

  it('still labels a citation stored before types were kept, reading its document once', async () => {
    const path = await answeredFromSlides()
    const reads = watchTypeReads({ untyped: true })
    const { user } = renderApp(path)
    const [chip] = await screen.findAllByTestId('citation-chip')
    await waitFor(() => expect(chip).toHaveAccessibleName('Source 1: Estuary talk, slide 2'))
    await user.click(screen.getByText('Sources (1)'))
    expect(screen.getByRole('list', { name: 'Sources' })).toHaveTextContent('slide 2')
    // One read for the document, shared by the chip and the sources panel.
    expect(reads).toHaveLength(1)
  })
})
