import { screen, waitFor, within } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { supabase } from '@/lib/supabase'
import { renderApp } from '@/testing/render-app'
import { inviteByEmail, signOutLocally, signUpAs, uniqueEmail } from '@/testing/users'

/** A workspace the signed-in owner made, with one indexed document of three passages. */
async function indexedWorkspace() {
  await signUpAs('owner')
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
      title: 'Herbarium notes',
      status: 'ready',
      stage: 'ready',
    })
    .select('id')
    .single()
  if (docError) throw docError
  const texts = [
    'Pressed ferns were mounted on acid-free card & labelled with the collector.',
    'The mangrove samples from the estuary were dried slowly to keep their leaves intact.',
    'Mosses need no pressing; they are kept loose in paper packets.',
  ]
  const { data: chunks, error: chunkError } = await supabase
    .from('chunks')
    .insert(
      texts.map((content, ordinal) => ({
        document_id: document.id,
        workspace_id: workspace.id,
        ordinal,
        content,
        page_start: ordinal + 4,
        page_end: ordinal + 5,
      })),
    )
    .select('id')
    .order('ordinal')
  if (chunkError) throw chunkError
  return { workspace, documentId: document.id, chunkIds: chunks.map((c) => c.id) }
}

afterEach(() => vi.restoreAllMocks())

describe('search', () => {
  it('shows highlighted passages as you type and opens the chosen one with Enter', async () => {
    const { workspace, documentId, chunkIds } = await indexedWorkspace()
    const { user, router } = renderApp(`/w/${workspace.id}/search`)
    expect(await screen.findByText('Type to search your documents')).toBeInTheDocument()

    const box = screen.getByRole('combobox', { name: 'Search documents' })
    await user.type(box, 'dried mangrove')
    const results = await screen.findByRole('listbox', { name: 'Search results' })
    const [first] = within(results).getAllByRole('option')
    expect(first).toHaveTextContent('Herbarium notes')
    expect(first).toHaveTextContent('pp. 5–6')
    expect(within(first!).getByText('mangrove').tagName).toBe('MARK')
    expect(within(first!).getByText('dried').tagName).toBe('MARK')
    expect(first).toHaveAttribute(
      'href',
      `/w/${workspace.id}/documents/${documentId}?chunk=${chunkIds[1]}`,
    )

    await user.clear(box)
    await user.type(box, 'zeppelin')
    expect(await screen.findByText('No passages match')).toBeInTheDocument()

    // An ampersand in the text comes back as text, not as markup.
    await user.clear(box)
    await user.type(box, 'ferns mosses')
    const results2 = await screen.findByRole('listbox', { name: 'Search results' })
    expect(await within(results2).findByText(/acid-free card & labelled/)).toBeInTheDocument()
    const options = within(results2).getAllByRole('option')
    expect(options).toHaveLength(2)
    await user.keyboard('{ArrowDown}{ArrowDown}{ArrowUp}{ArrowDown}')
    expect(options[1]).toHaveAttribute('aria-selected', 'true')
    const chosen = options[1]!.getAttribute('href')
    expect([chunkIds[0], chunkIds[2]].map((id) => chosen?.endsWith(`?chunk=${id}`))).toContain(true)
    await user.keyboard('{Enter}')
    await waitFor(() =>
      expect(`${router.state.location.pathname}${router.state.location.search}`).toBe(chosen),
    )
  })

  it('keeps the query, filters and opened result in the URL, restored on Back', async () => {
    const { workspace, documentId, chunkIds } = await indexedWorkspace()
    const { user, router } = renderApp(`/w/${workspace.id}/search`)
    const box = await screen.findByRole('combobox', { name: 'Search documents' })
    await user.type(box, 'mangrove')
    await screen.findByRole('listbox', { name: 'Search results' })
    // Typing replaces the entry rather than stacking one per keystroke.
    await waitFor(() => expect(router.state.location.search).toBe('?q=mangrove'))
    expect(router.state.historyAction).toBe('REPLACE')
    expect(screen.getByRole('status')).toHaveTextContent('1 result')

    await user.click(screen.getByRole('combobox', { name: 'Document' }))
    await user.click(await screen.findByRole('option', { name: 'Herbarium notes' }))
    await waitFor(() => expect(router.state.location.search).toBe(`?q=mangrove&doc=${documentId}`))
    expect(router.state.historyAction).toBe('PUSH')

    await user.click(await screen.findByRole('option', { name: /dried slowly/ }))
    await waitFor(() =>
      expect(router.state.location.pathname).toBe(`/w/${workspace.id}/documents/${documentId}`),
    )
    await router.navigate(-1)
    await waitFor(() =>
      expect(router.state.location.search).toBe(
        `?q=mangrove&doc=${documentId}&result=${chunkIds[1]}`,
      ),
    )
    const restored = await screen.findByRole('combobox', { name: 'Search documents' })
    expect(restored).toHaveValue('mangrove')
    expect(screen.getByRole('combobox', { name: 'Document' })).toHaveTextContent('Herbarium notes')
    const [option] = within(
      await screen.findByRole('listbox', { name: 'Search results' }),
    ).getAllByRole('option')
    expect(option).toHaveAttribute('aria-selected', 'true')
    expect(option).toHaveTextContent('dried slowly')

    // Back again: the search before the filter, and the box follows the URL.
    await router.navigate(-1)
    await waitFor(() => expect(router.state.location.search).toBe('?q=mangrove'))
    await waitFor(() =>
      expect(screen.getByRole('combobox', { name: 'Document' })).toHaveTextContent('All documents'),
    )
  })

  it('restores a shared link, ignoring what it got wrong', async () => {
    const { workspace } = await indexedWorkspace()
    renderApp(`/w/${workspace.id}/search?q=pressing&type=nonsense&doc=not-an-id`)
    expect(await screen.findByRole('combobox', { name: 'Search documents' })).toHaveValue(
      'pressing',
    )
    const results = await screen.findByRole('listbox', { name: 'Search results' })
    expect(within(results).getAllByRole('option')[0]).toHaveTextContent('Mosses need no pressing')
  })

  it('never opens the previous query’s result when Enter follows a new query at once', async () => {
    const { workspace, documentId, chunkIds } = await indexedWorkspace()
    const { user, router } = renderApp(`/w/${workspace.id}/search?q=ferns`)
    const results = await screen.findByRole('listbox', { name: 'Search results' })
    await within(results).findByText(/acid-free card/)
    const visited: string[] = []
    const stop = router.subscribe((state) =>
      visited.push(`${state.location.pathname}${state.location.search}`),
    )

    const box = screen.getByRole('combobox', { name: 'Search documents' })
    await user.clear(box)
    await user.type(box, 'estuary{Enter}')
    const mangrove = `/w/${workspace.id}/documents/${documentId}?chunk=${chunkIds[1]}`
    await waitFor(() =>
      expect(`${router.state.location.pathname}${router.state.location.search}`).toBe(mangrove),
    )
    stop()
    expect(visited.filter((path) => path.includes('/documents/'))).toEqual([mangrove])
    // The submitted search is its own entry: Back returns to it, with the result it opened.
    await router.navigate(-1)
    await waitFor(() =>
      expect(router.state.location.search).toBe(`?q=estuary&result=${chunkIds[1]}`),
    )
    expect(await screen.findByRole('combobox', { name: 'Search documents' })).toHaveValue('estuary')
  })

  it('lets a viewer search the workspace they joined', async () => {
    const { workspace } = await indexedWorkspace()
    const { data: voyage } = await supabase
      .from('documents')
      .insert({ workspace_id: workspace.id, title: 'Voyage log', status: 'ready', stage: 'ready' })
      .select('id')
      .single()
    await supabase.from('chunks').insert({
      document_id: voyage!.id,
      workspace_id: workspace.id,
      ordinal: 0,
      content: 'We anchored near the estuary at dawn; the crew went ashore for water.',
    })
    const email = uniqueEmail('viewer')
    const token = await inviteByEmail(workspace.id, email)
    await signOutLocally()
    await signUpAs('viewer', email)
    const accepted = await supabase.rpc('accept_invitation', { invitation_token: token })
    expect(accepted.error).toBeNull()

    const { user } = renderApp(`/w/${workspace.id}/search`)
    await user.type(await screen.findByRole('combobox', { name: 'Search documents' }), 'estuary')
    const results = await screen.findByRole('listbox', { name: 'Search results' })
    await waitFor(() => expect(within(results).getAllByRole('option')).toHaveLength(2))
    for (const mark of within(results).getAllByText('estuary')) expect(mark.tagName).toBe('MARK')

    // Narrowed to one document, only its passage is left.
    await user.click(screen.getByRole('combobox', { name: 'Document' }))
    await user.click(await screen.findByRole('option', { name: 'Voyage log' }))
    await waitFor(() => {
      const options = within(screen.getByRole('listbox', { name: 'Search results' })).getAllByRole(
        'option',
      )
      expect(options).toHaveLength(1)
      expect(options[0]).toHaveTextContent('Voyage log')
    })
  })

  it('places a passage on its slide in a presentation, and on no page in a workbook', async () => {
    const { workspace } = await indexedWorkspace()
    const office = [
      ['Survey deck', 'application/vnd.openxmlformats-officedocument.presentationml.presentation'],
      ['Survey counts', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'],
    ] as const
    for (const [title, mime_type] of office) {
      const { data: document, error } = await supabase
        .from('documents')
        .insert({ workspace_id: workspace.id, title, status: 'ready', stage: 'ready', mime_type })
        .select('id')
        .single()
      if (error) throw error
      const { error: chunkError } = await supabase.from('chunks').insert({
        document_id: document.id,
        workspace_id: workspace.id,
        ordinal: 0,
        content: `${title}: seedlings along the estuary, counted by hand.`,
        page_start: 2,
        page_end: 2,
      })
      if (chunkError) throw chunkError
    }

    const documentReads: string[] = []
    const fetch = globalThis.fetch
    vi.spyOn(globalThis, 'fetch').mockImplementation((input, init) => {
      const url = new Request(input, init).url
      if (/\/rest\/v1\/documents\?.*[?&]id=eq\./.test(url)) documentReads.push(url)
      return fetch(input, init)
    })
    const { user } = renderApp(`/w/${workspace.id}/search`)
    await user.type(await screen.findByRole('combobox', { name: 'Search documents' }), 'seedlings')
    const results = await screen.findByRole('listbox', { name: 'Search results' })
    await waitFor(() => expect(within(results).getAllByRole('option')).toHaveLength(2))
    const card = (title: string) =>
      within(results)
        .getAllByRole('option')
        .find((option) => option.textContent?.includes(title))!
    // Right as the results show, from the types they carry: no document is read for them.
    expect(card('Survey deck')).toHaveTextContent('slide 2')
    expect(card('Survey deck')).not.toHaveTextContent('p. 2')
    expect(card('Survey counts')).not.toHaveTextContent('p. 2')
    expect(documentReads).toEqual([])
  })

  it('narrows to a kind of document, and says so when nothing of that kind matches', async () => {
    const { workspace, documentId } = await indexedWorkspace()
    await supabase.from('documents').update({ mime_type: 'text/markdown' }).eq('id', documentId)
    const { data: memo } = await supabase
      .from('documents')
      .insert({
        workspace_id: workspace.id,
        title: 'Estuary memo',
        status: 'ready',
        stage: 'ready',
        mime_type: 'application/pdf',
      })
      .select('id')
      .single()
    await supabase.from('chunks').insert({
      document_id: memo!.id,
      workspace_id: workspace.id,
      ordinal: 0,
      content: 'The estuary survey found more mangrove seedlings than last year.',
    })

    const { user } = renderApp(`/w/${workspace.id}/search`)
    await user.type(await screen.findByRole('combobox', { name: 'Search documents' }), 'mangrove')
    const results = await screen.findByRole('listbox', { name: 'Search results' })
    await waitFor(() => expect(within(results).getAllByRole('option')).toHaveLength(2))

    await user.click(screen.getByRole('combobox', { name: 'Type' }))
    await user.click(await screen.findByRole('option', { name: 'PDF' }))
    await waitFor(() => {
      const options = within(screen.getByRole('listbox', { name: 'Search results' })).getAllByRole(
        'option',
      )
      expect(options).toHaveLength(1)
      expect(options[0]).toHaveTextContent('Estuary memo')
    })

    const box = screen.getByRole('combobox', { name: 'Search documents' })
    await user.clear(box)
    await user.type(box, 'mosses')
    expect(await screen.findByText('No passages match')).toBeInTheDocument()
    expect(screen.getByText(/Nothing in these documents matches/)).toBeInTheDocument()
  })
})
