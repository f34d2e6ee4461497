import { screen, waitFor, within } from '@testing-library/react'
import type { UserEvent } from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { CONNECTION_LOST } from '@/lib/errors'
import { supabase } from '@/lib/supabase'
import { renderApp } from '@/testing/render-app'
import { inviteByEmail, signOutLocally, signUpAs, signInAs, uniqueEmail } from '@/testing/users'

/**
 * The network drops the next request whose method and URL match, as a browser's fetch does
 * when the server cannot be reached; every other request goes through.
 */
function dropNext(method: string, path: RegExp) {
  const fetch = globalThis.fetch
  const spy = vi.spyOn(globalThis, 'fetch').mockImplementation((input, init) => {
    const request = new Request(input, init)
    if (request.method === method && path.test(request.url)) {
      spy.mockRestore()
      return Promise.reject(new TypeError('Failed to fetch'))
    }
    return fetch(input, init)
  })
  return spy
}

afterEach(() => vi.restoreAllMocks())

async function ownerWithDocument() {
  const ownerEmail = uniqueEmail('owner')
  await signUpAs('Olivia Owner', ownerEmail)
  const { data: workspace, error } = await supabase
    .from('workspaces')
    .insert({ name: 'Harbour' })
    .select()
    .single()
  if (error) throw error
  const { data: document, error: docError } = await supabase
    .from('documents')
    .insert({
      workspace_id: workspace.id,
      title: 'Tide tables',
      file_name: 'tides.csv',
      status: 'ready',
      stage: 'ready',
    })
    .select('id')
    .single()
  if (docError) throw docError
  return { ownerEmail, workspace, documentId: document.id }
}

/** Finds the failure toast by its message and presses its Retry, from the keyboard. */
async function retryFrom(user: UserEvent, text: string) {
  const toast = (await screen.findByText(`${text}: ${CONNECTION_LOST}`)).closest('li')!
  within(toast).getByRole('button', { name: 'Retry' }).focus()
  await user.keyboard('{Enter}')
}

describe('failed changes', () => {
  it('say the connection was lost, and Retry renames the document after all', async () => {
    const { workspace, documentId } = await ownerWithDocument()
    const { user } = renderApp(`/w/${workspace.id}/library`)
    await user.click(await screen.findByRole('button', { name: 'Actions for Tide tables' }))
    await user.click(await screen.findByRole('menuitem', { name: 'Rename' }))
    const dialog = await screen.findByRole('dialog', { name: 'Rename document' })
    const title = within(dialog).getByLabelText('Title')
    await user.clear(title)
    await user.type(title, 'Tide tables, spring')
    dropNext('PATCH', /\/rest\/v1\/documents/)
    await user.click(within(dialog).getByRole('button', { name: 'Save' }))
    await screen.findByText(`Could not rename the document: ${CONNECTION_LOST}`)
    // Nothing was changed, and the dialog stays open with what was typed.
    expect(title).toHaveValue('Tide tables, spring')
    const before = await supabase.from('documents').select('title').eq('id', documentId).single()
    expect(before.data?.title).toBe('Tide tables')

    // Closed without saving, the toast's Retry still makes the change asked for.
    await user.keyboard('{Escape}')
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
    await retryFrom(user, 'Could not rename the document')
    expect(await screen.findByText('Document renamed')).toBeInTheDocument()
    const after = await supabase.from('documents').select('title').eq('id', documentId).single()
    expect(after.data?.title).toBe('Tide tables, spring')
    expect(await screen.findByRole('link', { name: 'Tide tables, spring' })).toBeInTheDocument()
  })

  it('retry a role change and a revoked invitation the same way', async () => {
    const { ownerEmail, workspace } = await ownerWithDocument()
    const guestEmail = uniqueEmail('guest')
    const token = await inviteByEmail(workspace.id, guestEmail, 'viewer')
    await signOutLocally()
    const guest = await signUpAs('Gus Guest', guestEmail)
    const accepted = await supabase.rpc('accept_invitation', { invitation_token: token })
    expect(accepted.error).toBeNull()
    await signOutLocally()
    await signInAs(ownerEmail)
    const pendingEmail = uniqueEmail('pending')
    await inviteByEmail(workspace.id, pendingEmail, 'viewer')

    const { user } = renderApp(`/w/${workspace.id}/members`)
    await user.click(await screen.findByRole('combobox', { name: 'Role of Gus Guest' }))
    dropNext('PATCH', /\/rest\/v1\/workspace_members/)
    await user.click(await screen.findByRole('option', { name: /^Editor/ }))
    await retryFrom(user, 'Could not change the role')
    expect(await screen.findByText('Role changed')).toBeInTheDocument()
    const member = await supabase
      .from('workspace_members')
      .select('role')
      .eq('workspace_id', workspace.id)
      .eq('user_id', guest.userId)
      .single()
    expect(member.data?.role).toBe('editor')

    dropNext('DELETE', /\/rest\/v1\/workspace_invitations/)
    await user.click(
      await screen.findByRole('button', { name: `Revoke the invitation for ${pendingEmail}` }),
    )
    await retryFrom(user, 'Could not revoke the invitation')
    expect(await screen.findByText('Invitation revoked')).toBeInTheDocument()
    await waitFor(async () => {
      const { data } = await supabase
        .from('workspace_invitations')
        .select('id')
        .eq('email', pendingEmail)
      expect(data).toEqual([])
    })
  })
})
