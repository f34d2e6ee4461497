import { configure, screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { mailboxUrl } from '@/config/env'
import { supabase } from '@/lib/supabase'
import { renderApp } from '@/testing/render-app'
import {
  confirmByMail,
  inviteByEmail,
  PASSWORD,
  signInAs,
  signOutLocally,
  signUpAs,
  uniqueEmail,
} from '@/testing/users'

async function ownWorkspace(name: string) {
  const owner = await signUpAs('owner')
  const { data, error } = await supabase.from('workspaces').insert({ name }).select().single()
  if (error) throw error
  return { owner, workspace: data }
}

describe('members', () => {
  it('invites by email, shows the link and the pending invitation, and revokes it', async () => {
    const { workspace } = await ownWorkspace('Team')
    const { user } = renderApp(`/w/${workspace.id}/members`)
    await user.click(await screen.findByRole('button', { name: 'Invite' }))
    const dialog = await screen.findByRole('dialog')
    const email = uniqueEmail('guest')
    await user.type(within(dialog).getByLabelText('Email'), email)
    await user.click(within(dialog).getByRole('button', { name: 'Create invitation' }))

    const link = await within(dialog).findByLabelText('Invitation link')
    const { data } = await supabase
      .from('workspace_invitations')
      .select('role, email, secret:workspace_invitation_tokens(token)')
    expect(data).toEqual([{ role: 'viewer', email, secret: { token: expect.any(String) } }])
    const href = `${window.location.origin}/invite/${data![0]!.secret!.token}`
    expect(link).toHaveValue(href)
    // The send-invitation function mailed Sourcebook's invitation to the new address.
    expect(within(dialog).getByText(new RegExp(`We emailed ${email}`))).toBeInTheDocument()
    const mailbox = await fetch(`${mailboxUrl}/messages?email=${encodeURIComponent(email)}`)
    expect(await mailbox.json()).toMatchObject([
      { subject: 'owner invited you to join Team on Sourcebook' },
    ])
    await user.click(within(dialog).getByRole('button', { name: 'Done' }))

    // Opening the dialog again starts a new invitation, not the last one.
    await user.click(screen.getByRole('button', { name: 'Invite' }))
    expect(within(await screen.findByRole('dialog')).getByLabelText('Email')).toHaveValue('')
    await user.keyboard('{Escape}')

    expect(screen.getByText(/You are the only owner/)).toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Leave workspace' })).not.toBeInTheDocument()

    const pending = await screen.findByRole('region', { name: 'Pending invitations' })
    expect(within(pending).getByText(email)).toBeInTheDocument()
    // The owner can copy the link again from the list.
    expect(within(pending).getByLabelText(`Invitation link for ${email}`)).toHaveValue(href)
    expect(within(pending).getByText('Expires in 7 days')).toBeInTheDocument()
    await user.click(
      within(pending).getByRole('button', { name: `Revoke the invitation for ${email}` }),
    )
    await waitFor(() =>
      expect(screen.queryByRole('region', { name: 'Pending invitations' })).not.toBeInTheDocument(),
    )
  })

  it('lets the invitee accept at /invite/:token, and the owner change their role', async () => {
    const { owner, workspace } = await ownWorkspace('Shared')
    const guestEmail = uniqueEmail('guest')
    const token = await inviteByEmail(workspace.id, guestEmail)
    await signOutLocally()

    // Signed out, the link offers to sign up and come back.
    const first = renderApp(`/invite/${token}`)
    expect(await screen.findByRole('heading', { name: 'Join Shared' })).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Create an account to join' })).toHaveAttribute(
      'href',
      `/sign-up?next=${encodeURIComponent(`/invite/${token}`)}&email=${encodeURIComponent(guestEmail)}`,
    )
    first.unmount()

    const guest = await signUpAs('guest', guestEmail)
    const second = renderApp(`/invite/${token}`)
    await second.user.click(await screen.findByRole('button', { name: 'Join Shared' }))
    await waitFor(() =>
      expect(second.router.state.location.pathname).toBe(`/w/${workspace.id}/library`),
    )
    // A viewer sees no upload button, and no invite button on the members page.
    expect(await screen.findByText('No documents yet')).toBeInTheDocument()
    expect(screen.queryByRole('button', { name: /Upload/ })).not.toBeInTheDocument()
    second.unmount()
    const viewerMembers = renderApp(`/w/${workspace.id}/members`)
    expect(await screen.findByText('2 members')).toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Invite' })).not.toBeInTheDocument()
    viewerMembers.unmount()

    // The owner makes the guest an editor.
    await signInAs(owner.email)
    const ownerView = renderApp(`/w/${workspace.id}/members`)
    await ownerView.user.click(await screen.findByRole('combobox', { name: 'Role of guest' }))
    // Each option reads as one sentence, in sentence case (no CSS capitalising it).
    expect((await screen.findAllByRole('option')).map((option) => option.textContent)).toEqual([
      'OwnerOwner: everything, including members, roles and settings',
      'EditorEditor: upload, rename and delete documents',
      'ViewerViewer: read, search and chat',
    ])
    await ownerView.user.click(
      screen.getByRole('option', { name: 'Editor: upload, rename and delete documents' }),
    )
    await waitFor(async () => {
      const { data } = await supabase
        .from('workspace_members')
        .select('role')
        .eq('workspace_id', workspace.id)
        .eq('user_id', guest.userId)
      expect(data).toEqual([{ role: 'editor' }])
    })
  })

  it('asks someone who never gave a name for one, then joins them in the same step', async () => {
    const { workspace } = await ownWorkspace('Named')
    const email = uniqueEmail('eddie')
    const token = await inviteByEmail(workspace.id, email)
    await signOutLocally()
    // An account with no name of its own: its profile took the address's first half.
    const { error } = await supabase.auth.signUp({ email, password: PASSWORD })
    expect(error).toBeNull()
    const session = await confirmByMail(email)

    const { user, router } = renderApp(`/invite/${token}`)
    await user.click(await screen.findByRole('button', { name: 'Join Named' }))
    expect(await screen.findByRole('alert')).toHaveTextContent('Enter your name')
    await user.type(screen.getByLabelText('Name'), 'Eddie Example')
    await user.click(screen.getByRole('button', { name: 'Join Named' }))
    await waitFor(() => expect(router.state.location.pathname).toBe(`/w/${workspace.id}/library`))
    const { data } = await supabase
      .from('profiles')
      .select('display_name')
      .eq('id', session.user.id)
    expect(data).toEqual([{ display_name: 'Eddie Example' }])
  })

  it('shows an invitee their pending invitations, and joining takes the mailed link', async () => {
    const { workspace } = await ownWorkspace('Waiting room')
    const guestEmail = uniqueEmail('waiting')
    const token = await inviteByEmail(workspace.id, guestEmail, 'editor')
    await signOutLocally()
    await signUpAs('waiting', guestEmail)

    const list = renderApp('/workspaces')
    const mine = await screen.findByRole('region', { name: 'Invitations for you' })
    expect(mine).toHaveTextContent('Waiting room: owner invited you as an editor.')
    expect(mine).toHaveTextContent('Expires in 7 days')
    expect(mine).toHaveTextContent('To join, open the link in the invitation mail')
    expect(mine.innerHTML).not.toContain(token)
    list.unmount()

    // The link joins, and the invitation leaves the list.
    const { error } = await supabase.rpc('accept_invitation', { invitation_token: token })
    expect(error).toBeNull()
    renderApp('/workspaces')
    expect(await screen.findByRole('link', { name: /Waiting room/ })).toBeInTheDocument()
    expect(screen.queryByRole('region', { name: 'Invitations for you' })).not.toBeInTheDocument()
  })

  it('lets a member leave', async () => {
    const { workspace } = await ownWorkspace('Leaving')
    const guestEmail = uniqueEmail('leaver')
    const token = await inviteByEmail(workspace.id, guestEmail, 'editor')
    await signOutLocally()
    await signUpAs('leaver', guestEmail)
    const { error } = await supabase.rpc('accept_invitation', {
      invitation_token: token,
    })
    expect(error).toBeNull()

    const { user, router } = renderApp(`/w/${workspace.id}/members`)
    await user.click(await screen.findByRole('button', { name: 'Leave workspace' }))
    await user.click(
      within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Leave' }),
    )
    await waitFor(() => expect(router.state.location.pathname).toBe('/workspaces'))
    const { data } = await supabase.from('workspaces').select('id')
    expect(data).toEqual([])
  })

  it('stays live under StrictMode when the page is left and opened again', async () => {
    const { owner, workspace } = await ownWorkspace('Strict')
    const guestEmail = uniqueEmail('strict')
    const token = await inviteByEmail(workspace.id, guestEmail)
    await signOutLocally()
    const guest = await signUpAs('strict', guestEmail)
    await supabase.rpc('accept_invitation', { invitation_token: token })
    await signInAs(owner.email)

    const membersChannel = () =>
      supabase.getChannels().find((c) => c.topic.startsWith('realtime:workspace-members:'))
    configure({ reactStrictMode: true })
    try {
      const first = renderApp(`/w/${workspace.id}/members`)
      await waitFor(() => expect(membersChannel()?.state).toBe('joined'))
      // Left and opened again at once: the first mount's channel may still be leaving.
      first.unmount()
      renderApp(`/w/${workspace.id}/members`)
      expect(await screen.findByText('2 members')).toBeInTheDocument()
      await waitFor(() => expect(membersChannel()?.state).toBe('joined'))

      const { error } = await supabase
        .from('workspace_members')
        .update({ role: 'editor' })
        .eq('workspace_id', workspace.id)
        .eq('user_id', guest.userId)
      expect(error).toBeNull()
      await waitFor(() =>
        expect(screen.getByRole('combobox', { name: 'Role of strict' })).toHaveTextContent(
          'Editor',
        ),
      )
    } finally {
      configure({ reactStrictMode: false })
    }
  })
})
