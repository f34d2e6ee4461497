import { screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { supabase } from '@/lib/supabase'
import { renderApp } from '@/testing/render-app'
import { inviteByEmail, signOutLocally, signUpAs, uniqueEmail } from '@/testing/users'

async function ownWorkspace() {
  await signUpAs('Ada Owner', uniqueEmail('owner'))
  const { data, error } = await supabase
    .from('workspaces')
    .insert({ name: 'Archive' })
    .select()
    .single()
  if (error) throw error
  return data
}

async function addDocuments(workspaceId: string, titles: string[]) {
  const { data, error } = await supabase
    .from('documents')
    .insert(
      titles.map((title) => ({
        title,
        status: 'ready',
        stage: 'ready',
        workspace_id: workspaceId,
      })),
    )
    .select('id, title')
  if (error) throw error
  return data
}

const table = () => screen.findByRole('table', { name: 'Documents' })
const titles = () =>
  within(screen.getByRole('table', { name: 'Documents' }))
    .queryAllByRole('link')
    .map((link) => link.textContent)
const collectionsBar = () => screen.getByRole('region', { name: 'Collections' })

describe('collections in the library', () => {
  it('are made from a selection, filter the library with counts, and are edited and deleted', async () => {
    const workspace = await ownWorkspace()
    await addDocuments(workspace.id, [
      'Board minutes 2023.pdf',
      'Board minutes 2024.pdf',
      'Budget.csv',
    ])
    const { user } = renderApp(`/w/${workspace.id}/library`)
    await table()

    // Tick two rows: the selection's actions appear.
    await user.click(screen.getByRole('checkbox', { name: 'Select Board minutes 2023.pdf' }))
    await user.click(screen.getByRole('checkbox', { name: 'Select Board minutes 2024.pdf' }))
    const selection = screen.getByRole('region', { name: 'Selected documents' })
    expect(within(selection).getByText('2 documents selected')).toBeInTheDocument()

    // Into a new collection, named, coloured and described in the dialog.
    await user.click(within(selection).getByRole('button', { name: 'Add to collection' }))
    await user.click(await screen.findByRole('menuitem', { name: 'New collection…' }))
    const dialog = await screen.findByRole('dialog', { name: 'New collection' })
    await user.click(within(dialog).getByRole('button', { name: 'Create collection' }))
    expect(await within(dialog).findByText('Give it a name')).toBeInTheDocument()
    await user.type(within(dialog).getByLabelText('Name'), 'Board minutes')
    await user.click(within(dialog).getByRole('radio', { name: 'Violet' }))
    await user.type(within(dialog).getByLabelText('Description'), 'Minutes of every board')
    await user.click(within(dialog).getByRole('button', { name: 'Create collection' }))
    expect(await screen.findByText('Added 2 documents to Board minutes')).toBeInTheDocument()
    await waitFor(() =>
      expect(screen.queryByRole('region', { name: 'Selected documents' })).toBeNull(),
    )

    const { data: stored } = await supabase
      .from('collections')
      .select('id, name, color, description')
      .eq('workspace_id', workspace.id)
      .single()
    expect(stored).toMatchObject({
      name: 'Board minutes',
      color: 'violet',
      description: 'Minutes of every board',
    })

    // Counts per collection, and the filter.
    const filter = await within(collectionsBar()).findByRole('button', {
      name: /Board minutes\s*2/,
    })
    expect(
      within(collectionsBar()).getByRole('button', { name: /All documents\s*3/ }),
    ).toBeInTheDocument()
    await user.click(filter)
    expect(filter).toHaveAttribute('aria-pressed', 'true')
    expect(titles().sort()).toEqual(['Board minutes 2023.pdf', 'Board minutes 2024.pdf'])
    expect(screen.getByText(/Minutes of every board/)).toBeInTheDocument()

    // Added elsewhere (another tab): the count and the filter follow, live.
    const budget = (
      await supabase.from('documents').select('id').eq('title', 'Budget.csv').single()
    ).data!
    await supabase
      .from('collection_documents')
      .insert({ collection_id: stored!.id, document_id: budget.id, workspace_id: workspace.id })
    await waitFor(() => expect(titles()).toHaveLength(3), { timeout: 10_000 })

    // Renamed…
    await user.click(screen.getByRole('button', { name: 'Edit' }))
    const edit = await screen.findByRole('dialog', { name: 'Edit collection' })
    const name = within(edit).getByLabelText('Name')
    await user.clear(name)
    await user.type(name, 'Governance')
    await user.click(within(edit).getByRole('button', { name: 'Save' }))
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
    expect(
      await within(collectionsBar()).findByRole('button', { name: /Governance\s*3/ }),
    ).toBeInTheDocument()

    // …and deleted: the documents stay.
    await user.click(screen.getByRole('button', { name: 'Delete' }))
    const confirm = await screen.findByRole('alertdialog', { name: 'Delete “Governance”?' })
    await user.click(within(confirm).getByRole('button', { name: 'Delete collection' }))
    await waitFor(() =>
      expect(within(collectionsBar()).queryByRole('button', { name: /Governance/ })).toBeNull(),
    )
    expect(titles()).toHaveLength(3)
    const { count } = await supabase
      .from('documents')
      .select('id', { count: 'exact', head: true })
      .eq('workspace_id', workspace.id)
    expect(count).toBe(3)
  })

  it('starts a conversation kept to a collection, shown as removable chips', async () => {
    const workspace = await ownWorkspace()
    const [minutes] = await addDocuments(workspace.id, ['Minutes.pdf', 'Other.pdf'])
    const { data: made } = await supabase
      .from('collections')
      .insert({ workspace_id: workspace.id, name: 'Board' })
      .select('id')
      .single()
    await supabase
      .from('collection_documents')
      .insert({ collection_id: made!.id, document_id: minutes!.id, workspace_id: workspace.id })
    const { user, router } = renderApp(`/w/${workspace.id}/library`)
    await table()

    await user.click(await within(collectionsBar()).findByRole('button', { name: /Board\s*1/ }))
    await user.click(screen.getByRole('button', { name: 'Ask about Board' }))
    await waitFor(() => expect(router.state.location.pathname).toMatch(/\/chat\/[0-9a-f-]{36}$/))
    const conversationId = router.state.location.pathname.split('/').at(-1)!
    const chips = await screen.findByRole('list', { name: 'Answers from' })
    expect(within(chips).getByText('Board')).toBeInTheDocument()

    const { data: scoped } = await supabase
      .from('conversations')
      .select('document_ids, collection_ids')
      .eq('id', conversationId)
      .single()
    expect(scoped).toEqual({ document_ids: [], collection_ids: [made!.id] })

    // Taking the last chip away: answers come from the whole workspace again.
    await user.click(within(chips).getByRole('button', { name: 'Stop answering from Board' }))
    expect(await screen.findByText('Answers from the whole workspace')).toBeInTheDocument()
    const { data: widened } = await supabase
      .from('conversations')
      .select('document_ids, collection_ids')
      .eq('id', conversationId)
      .single()
    expect(widened).toEqual({ document_ids: null, collection_ids: null })
  })

  it('lets a viewer filter and ask about a selection, but not change collections', async () => {
    const workspace = await ownWorkspace()
    const [first, second] = await addDocuments(workspace.id, ['Alpha.pdf', 'Beta.pdf'])
    await supabase.from('collections').insert({ workspace_id: workspace.id, name: 'Greek' })
    const viewerEmail = uniqueEmail('viewer')
    const token = await inviteByEmail(workspace.id, viewerEmail, 'viewer')
    await signOutLocally()
    await signUpAs('Vera Viewer', viewerEmail)
    const accepted = await supabase.rpc('accept_invitation', { invitation_token: token })
    expect(accepted.error).toBeNull()

    const { user, router } = renderApp(`/w/${workspace.id}/library`)
    await table()
    expect(
      await within(collectionsBar()).findByRole('button', { name: /Greek\s*0/ }),
    ).toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'New collection' })).toBeNull()

    await user.click(screen.getByRole('checkbox', { name: 'Select all documents shown' }))
    const selection = screen.getByRole('region', { name: 'Selected documents' })
    expect(within(selection).getByText('2 documents selected')).toBeInTheDocument()
    expect(within(selection).queryByRole('button', { name: 'Add to collection' })).toBeNull()
    await user.click(within(selection).getByRole('button', { name: 'Ask about these' }))
    await waitFor(() => expect(router.state.location.pathname).toMatch(/\/chat\/[0-9a-f-]{36}$/))
    const chips = await screen.findByRole('list', { name: 'Answers from' })
    expect(within(chips).getByText('Alpha.pdf')).toBeInTheDocument()
    expect(within(chips).getByText('Beta.pdf')).toBeInTheDocument()
    const { data } = await supabase
      .from('conversations')
      .select('document_ids')
      .eq('id', router.state.location.pathname.split('/').at(-1)!)
      .single()
    expect([...data!.document_ids!].sort()).toEqual([first!.id, second!.id].sort())
  })

  it('asks about one document from its page', async () => {
    const workspace = await ownWorkspace()
    const [report] = await addDocuments(workspace.id, ['Report.pdf', 'Other.pdf'])
    const { user, router } = renderApp(`/w/${workspace.id}/documents/${report!.id}`)
    await user.click(await screen.findByRole('button', { name: 'Ask about it' }))
    await waitFor(() => expect(router.state.location.pathname).toMatch(/\/chat\/[0-9a-f-]{36}$/))
    const chips = await screen.findByRole('list', { name: 'Answers from' })
    expect(within(chips).getByText('Report.pdf')).toBeInTheDocument()
    const { data } = await supabase
      .from('conversations')
      .select('document_ids, collection_ids')
      .eq('id', router.state.location.pathname.split('/').at(-1)!)
      .single()
    expect(data).toEqual({ document_ids: [report!.id], collection_ids: [] })
  })

  it('keeps a search to a collection, shown as a chip that takes it away', async () => {
    const workspace = await ownWorkspace()
    const [inside, outside] = await addDocuments(workspace.id, ['Herbarium.md', 'Canary.md'])
    for (const [doc, content] of [
      [inside!, 'The mangrove samples were dried slowly.'],
      [outside!, 'CANARY mangrove samples dried mangrove samples dried.'],
    ] as const) {
      const { error } = await supabase
        .from('chunks')
        .insert({ document_id: doc.id, workspace_id: workspace.id, ordinal: 0, content })
      if (error) throw error
    }
    const { data: made } = await supabase
      .from('collections')
      .insert({ workspace_id: workspace.id, name: 'Botany' })
      .select('id')
      .single()
    await supabase
      .from('collection_documents')
      .insert({ collection_id: made!.id, document_id: inside!.id, workspace_id: workspace.id })

    const { user, router } = renderApp(
      `/w/${workspace.id}/search?q=mangrove+samples&collection=${made!.id}`,
    )
    const results = await screen.findByRole('listbox', { name: 'Search results' })
    const texts = () =>
      within(results)
        .getAllByRole('option')
        .map((o) => o.textContent ?? '')
    await waitFor(() => expect(texts()).toHaveLength(1))
    expect(texts()[0]).toContain('Herbarium.md')
    const chips = screen.getByRole('list', { name: 'Searching in' })
    await user.click(within(chips).getByRole('button', { name: 'Stop searching only in Botany' }))
    await waitFor(() => expect(texts()).toHaveLength(2))
    expect(router.state.location.search).not.toContain('collection=')
    expect(screen.queryByRole('list', { name: 'Searching in' })).toBeNull()
  })

  it('shows a shared conversation’s scope to a teammate, who cannot change it', async () => {
    const workspace = await ownWorkspace()
    const [minutes] = await addDocuments(workspace.id, ['Minutes.pdf'])
    const { data: conversation } = await supabase
      .from('conversations')
      .insert({
        workspace_id: workspace.id,
        title: 'About the minutes',
        visibility: 'shared',
        document_ids: [minutes!.id],
      })
      .select('id')
      .single()
    const email = uniqueEmail('editor')
    const token = await inviteByEmail(workspace.id, email, 'editor')
    await signOutLocally()
    await signUpAs('Eddie Editor', email)
    await supabase.rpc('accept_invitation', { invitation_token: token })

    renderApp(`/w/${workspace.id}/chat/${conversation!.id}`)
    const chips = await screen.findByRole('list', { name: 'Answers from' })
    expect(within(chips).getByText('Minutes.pdf')).toBeInTheDocument()
    expect(within(chips).queryByRole('button')).toBeNull()
    // Only its creator adds to the scope: no @ suggestions here.
    const box = screen.getByRole('textbox', { name: 'Ask a question' })
    expect(box).toHaveAttribute('placeholder', 'Ask about your documents…')
  })
})
