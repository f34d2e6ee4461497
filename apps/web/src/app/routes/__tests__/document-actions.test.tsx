import { screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { supabase } from '@/lib/supabase'
import { renderApp } from '@/testing/render-app'
import { signUpAs, uniqueEmail } from '@/testing/users'

/** An owner's workspace with one document still being read (the header needs no text). */
async function workspaceWithDocument() {
  await signUpAs('Olivia Owner', uniqueEmail('owner'))
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
      title: 'Survey notes.txt',
      mime_type: 'text/plain',
      size_bytes: 2048,
      status: 'processing',
      stage: 'extracting',
      progress: 0.4,
    })
    .select('id')
    .single()
  if (docError) throw docError
  return { workspace, documentId: document.id }
}

// The phone header's "More actions" menu (the buttons it stands for are hidden by CSS, which
// the test DOM does not apply: the menu is driven here directly).
describe('document header actions', () => {
  it('renames from the More actions menu, under the same name as the button', async () => {
    const { workspace, documentId } = await workspaceWithDocument()
    const { user } = renderApp(`/w/${workspace.id}/documents/${documentId}`)
    await user.click(await screen.findByRole('button', { name: 'More actions' }))
    await user.click(await screen.findByRole('menuitem', { name: 'Rename' }))
    const dialog = await screen.findByRole('dialog', { name: 'Rename document' })
    const title = within(dialog).getByLabelText('Title')
    await user.clear(title)
    await user.type(title, 'Estuary survey')
    await user.click(within(dialog).getByRole('button', { name: 'Save' }))
    expect(await screen.findByRole('heading', { name: 'Estuary survey' })).toBeInTheDocument()
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
    // The page stays usable once the menu's dialog has closed.
    expect(document.body.style.pointerEvents).not.toBe('none')
  })

  it('deletes from the More actions menu after confirmation', async () => {
    const { workspace, documentId } = await workspaceWithDocument()
    const { user, router } = renderApp(`/w/${workspace.id}/documents/${documentId}`)
    await user.click(await screen.findByRole('button', { name: 'More actions' }))
    await user.click(await screen.findByRole('menuitem', { name: 'Delete' }))
    const dialog = await screen.findByRole('alertdialog')
    expect(dialog).toHaveTextContent('Delete “Survey notes.txt”?')
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }))
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull())
    // Focus goes back to the menu's button, not to the page (the menu item is gone).
    await waitFor(() => expect(screen.getByRole('button', { name: 'More actions' })).toHaveFocus())

    await user.click(screen.getByRole('button', { name: 'More actions' }))
    await user.click(await screen.findByRole('menuitem', { name: 'Delete' }))
    await user.click(
      within(await screen.findByRole('alertdialog')).getByRole('button', {
        name: 'Delete document',
      }),
    )
    await waitFor(() => expect(router.state.location.pathname).toBe(`/w/${workspace.id}/library`))
    const { data } = await supabase.from('documents').select('id').eq('id', documentId)
    expect(data).toEqual([])
  })
})
