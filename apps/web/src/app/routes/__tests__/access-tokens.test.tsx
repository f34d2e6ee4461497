import { screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { env } from '@/config/env'
import { supabase } from '@/lib/supabase'
import { renderApp } from '@/testing/render-app'
import { inviteByEmail, signOutLocally, signUpAs, uniqueEmail } from '@/testing/users'

// Settings → Access tokens and Connect an AI assistant, against the test localbase and its
// real mcp function.

async function ownWorkspace() {
  await signUpAs('owner')
  const { data, error } = await supabase
    .from('workspaces')
    .insert({ name: 'Field notes' })
    .select()
    .single()
  if (error) throw error
  return data
}

describe('access tokens', () => {
  it('creates a token shown once, tests it, lists its use and revokes it', async () => {
    const workspace = await ownWorkspace()
    const { user } = renderApp(`/w/${workspace.id}/settings`)
    expect(
      await screen.findByText('You have no tokens for this workspace yet.'),
    ).toBeInTheDocument()

    await user.click(screen.getByRole('button', { name: 'Create token' }))
    const dialog = await screen.findByRole('dialog', { name: 'Create an access token' })
    // A name is required.
    await user.click(within(dialog).getByRole('button', { name: 'Create token' }))
    expect(await within(dialog).findByText(/Give the token a name/)).toBeInTheDocument()
    await user.type(within(dialog).getByRole('textbox', { name: 'Name' }), 'Claude on my laptop')
    await user.click(within(dialog).getByRole('combobox', { name: 'Expires after' }))
    await user.click(await screen.findByRole('option', { name: '30 days' }))
    await user.click(within(dialog).getByRole('combobox', { name: 'Access' }))
    await user.click(await screen.findByRole('option', { name: 'Read and upload' }))
    await user.click(within(dialog).getByRole('button', { name: 'Create token' }))

    const shown = await screen.findByRole('dialog', { name: 'Copy your token' })
    const secret = within(shown).getByRole('textbox', { name: 'Access token' })
    const token = (secret as HTMLInputElement).value
    expect(token).toMatch(/^sbk_[A-Za-z0-9_-]{43}$/)
    await user.click(within(shown).getByRole('button', { name: 'Done' }))
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument())
    // Focus goes back to what opened the dialog.
    expect(screen.getByRole('button', { name: 'Create token' })).toHaveFocus()

    const list = await screen.findByRole('list', { name: 'Access tokens' })
    const row = await within(list).findByText('Claude on my laptop')
    const item = row.closest('li')!
    expect(item).toHaveTextContent('Read and upload')
    expect(item).toHaveTextContent('Never used')
    expect(item).toHaveTextContent(token.slice(0, 10))
    expect(item).not.toHaveTextContent(token.slice(10))
    // The secret is not in the page any more.
    expect(document.body.textContent).not.toContain(token)

    // Test connection: an MCP initialize and tools/list with the token.
    await user.type(screen.getByLabelText('Test a token'), token)
    await user.click(screen.getByRole('button', { name: 'Test connection' }))
    expect(
      await screen.findByText(
        /Connected to Sourcebook\. Clients will see 6 tools: search, ask, .*upload_document/,
      ),
    ).toBeInTheDocument()
    // The test was a use of the token.
    await waitFor(() => expect(item).toHaveTextContent(/Last used/))

    await user.click(screen.getByRole('button', { name: 'Revoke Claude on my laptop' }))
    const confirm = await screen.findByRole('alertdialog', {
      name: 'Revoke “Claude on my laptop”?',
    })
    await user.click(within(confirm).getByRole('button', { name: 'Revoke' }))
    expect(await screen.findByText(/is revoked/)).toBeInTheDocument()
    await waitFor(() =>
      expect(screen.queryByRole('button', { name: 'Revoke Claude on my laptop' })).toBeNull(),
    )
    // Its Revoke button is gone: focus lands on Create token, not on the page's body.
    await waitFor(() => expect(screen.getByRole('button', { name: 'Create token' })).toHaveFocus())
    expect(item).toHaveTextContent('Revoked')
    const { data } = await supabase.from('access_tokens').select('revoked_at').single()
    expect(data!.revoked_at).not.toBeNull()

    await user.clear(screen.getByLabelText('Test a token'))
    await user.type(screen.getByLabelText('Test a token'), token)
    await user.click(screen.getByRole('button', { name: 'Test connection' }))
    expect(
      await screen.findByText('This access token is unknown or has been revoked'),
    ).toBeInTheDocument()
  })

  it('gives a viewer read tokens only', async () => {
    const workspace = await ownWorkspace()
    const email = uniqueEmail('viewer')
    const invitation = await inviteByEmail(workspace.id, email)
    await signOutLocally()
    await signUpAs('viewer', email)
    await supabase.rpc('accept_invitation', { invitation_token: invitation })

    const { user } = renderApp(`/w/${workspace.id}/settings`)
    await user.click(await screen.findByRole('button', { name: 'Create token' }))
    const dialog = await screen.findByRole('dialog', { name: 'Create an access token' })
    const access = within(dialog).getByRole('combobox', { name: 'Access' })
    expect(access).toHaveTextContent('Read')
    expect(access).toBeDisabled()
    expect(within(dialog).getByText(/As a viewer, your tokens can only read/)).toBeInTheDocument()
  })

  it('shows each client’s configuration with this server’s URL', async () => {
    const workspace = await ownWorkspace()
    const { user } = renderApp(`/w/${workspace.id}/settings`)
    const url = `${env.SUPABASE_URL}/functions/v1/mcp`
    expect(await screen.findByRole('textbox', { name: 'Server URL' })).toHaveValue(url)

    const snippet = (client: string) => screen.getByLabelText(`${client} configuration`)
    expect(snippet('Claude Desktop')).toHaveTextContent('mcp-remote')
    await user.click(screen.getByRole('button', { name: 'Cursor' }))
    expect(screen.getByRole('button', { name: 'Cursor' })).toHaveAttribute('aria-pressed', 'true')
    const cursor = JSON.parse(snippet('Cursor').textContent!) as {
      mcpServers: { sourcebook: { url: string; headers: { Authorization: string } } }
    }
    expect(cursor.mcpServers.sourcebook).toEqual({
      url,
      headers: { Authorization: 'Bearer YOUR_SOURCEBOOK_TOKEN' },
    })
    await user.click(screen.getByRole('button', { name: 'Claude Code' }))
    expect(snippet('Claude Code')).toHaveTextContent(
      `claude mcp add --transport http sourcebook ${url} --header "Authorization: Bearer YOUR_SOURCEBOOK_TOKEN"`,
    )
    await user.click(screen.getByRole('button', { name: 'VS Code' }))
    expect(snippet('VS Code')).toHaveTextContent('"type": "http"')
  })
})
