import { screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { supabase } from '@/lib/supabase'
import { renderApp } from '@/testing/render-app'
import { signUpAs } from '@/testing/users'

async function createWorkspace(name: string) {
  const { data, error } = await supabase.from('workspaces').insert({ name }).select().single()
  if (error) throw error
  return data
}

describe('workspaces', () => {
  it('creates a workspace from the dialog and opens its empty library', async () => {
    await signUpAs('owner')
    const { user, router } = renderApp('/workspaces')
    await screen.findByText('No workspaces yet')
    await user.click(screen.getAllByRole('button', { name: 'New workspace' })[0]!)
    const dialog = await screen.findByRole('dialog')
    await user.click(within(dialog).getByRole('button', { name: 'Create workspace' }))
    expect(await within(dialog).findByText('Give it a name')).toBeInTheDocument()

    await user.type(within(dialog).getByLabelText('Workspace name'), '  Research  ')
    await user.click(within(dialog).getByRole('button', { name: 'Create workspace' }))

    expect(await screen.findByRole('heading', { name: 'Library' })).toBeInTheDocument()
    expect(await screen.findByText('No documents yet')).toBeInTheDocument()
    expect(router.state.location.pathname).toMatch(/^\/w\/[0-9a-f-]{36}\/library$/)
    // The database trimmed the name and made us the owner.
    const { data } = await supabase.from('workspace_members').select('role')
    expect(data).toEqual([{ role: 'owner' }])
    expect(
      screen.getAllByRole('button', { name: /Research.*Switch workspace/ })[0],
    ).toBeInTheDocument()
  })

  it('remembers the last workspace and reopens it at /', async () => {
    await signUpAs('switcher')
    const first = await createWorkspace('Alpha')
    await createWorkspace('Beta')
    const { unmount } = renderApp(`/w/${first.id}/search`)
    await screen.findByRole('heading', { name: 'Search' })
    unmount()

    const again = renderApp('/')
    await waitFor(() => expect(again.router.state.location.pathname).toBe(`/w/${first.id}/library`))
  })

  it('shows a not-found page for a workspace that is not yours', async () => {
    await signUpAs('stranger')
    renderApp('/w/00000000-0000-4000-8000-000000000000/library')
    expect(await screen.findByText('We can’t find that page')).toBeInTheDocument()
  })

  it('renames, then deletes only after the name is typed', async () => {
    await signUpAs('renamer')
    const workspace = await createWorkspace('Old name')
    const { user, router } = renderApp(`/w/${workspace.id}/settings`)

    const name = await screen.findByLabelText('Workspace name')
    await user.clear(name)
    await user.type(name, 'New name')
    await user.click(screen.getByRole('button', { name: 'Save' }))
    await waitFor(async () => {
      const { data } = await supabase.from('workspaces').select('name').eq('id', workspace.id)
      expect(data).toEqual([{ name: 'New name' }])
    })

    await user.click(screen.getByRole('button', { name: 'Delete workspace…' }))
    const dialog = await screen.findByRole('alertdialog')
    const confirm = within(dialog).getByRole('button', { name: 'Delete forever' })
    expect(confirm).toBeDisabled()
    await user.type(within(dialog).getByLabelText('Workspace name'), 'New nam')
    expect(confirm).toBeDisabled()
    await user.type(within(dialog).getByLabelText('Workspace name'), 'e')
    await user.click(confirm)

    await waitFor(() => expect(router.state.location.pathname).toBe('/workspaces'))
    const { data } = await supabase.from('workspaces').select('id').eq('id', workspace.id)
    expect(data).toEqual([])
  })
})
