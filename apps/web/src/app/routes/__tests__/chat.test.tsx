import { cleanup, screen, waitFor, within } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { createClient } from '@supabase/supabase-js'
import { env } from '@/config/env'
import { supabase } from '@/lib/supabase'
import { ask } from '@/testing/ask-chat'
import { renderApp } from '@/testing/render-app'
import {
  inviteByEmail,
  PASSWORD,
  signInAs,
  signOutLocally,
  signUpAs,
  uniqueEmail,
} from '@/testing/users'

/**
 * The server answers the conversation list's reads late (as it may under load), while the
 * open conversation's read comes back at once: what the two show must still agree.
 */
function slowListReads(ms: number) {
  const fetch = globalThis.fetch
  return vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const request = new Request(input, init)
    const list = /\/rest\/v1\/conversations\?.*order=updated_at/.test(request.url)
    if (request.method === 'GET' && list) await new Promise((done) => setTimeout(done, ms))
    return fetch(input, init)
  })
}

afterEach(() => vi.restoreAllMocks())

async function ownWorkspace(name = 'Field notes') {
  const owner = await signUpAs('Olivia')
  const { data, error } = await supabase.from('workspaces').insert({ name }).select().single()
  if (error) throw error
  return { owner, workspace: data }
}

/** One ready document whose passages the offline (extractive) answer can quote. */
async function addDocument(workspaceId: string) {
  const headings = ['Pressing', 'Drying', 'Storage']
  const texts = [
    'Pressed ferns were mounted on acid-free card and labelled with the collector.',
    'The mangrove samples from the estuary were dried slowly over three weeks to keep their leaves intact.',
    'Mosses need no pressing; they are kept loose in paper packets.',
  ]
  const { data: document, error } = await supabase
    .from('documents')
    .insert({
      workspace_id: workspaceId,
      title: 'Herbarium notes',
      status: 'ready',
      stage: 'ready',
    })
    .select('id')
    .single()
  if (error) throw error
  let at = 0
  const { data: chunks, error: chunkError } = await supabase
    .from('chunks')
    .insert(
      texts.map((content, ordinal) => {
        const row = {
          document_id: document.id,
          workspace_id: workspaceId,
          ordinal,
          content,
          heading_path: ['Herbarium notes', headings[ordinal]!],
          page_start: ordinal + 1,
          page_end: ordinal + 1,
          char_start: at,
          char_end: at + content.length,
        }
        at += content.length + 1
        return row
      }),
    )
    .select('id')
    .order('ordinal')
  if (chunkError) throw chunkError
  return { documentId: document.id, chunkIds: chunks.map((c) => c.id) }
}

async function joinAs(workspaceId: string, name: string) {
  const email = uniqueEmail(name)
  const token = await inviteByEmail(workspaceId, email)
  await signOutLocally()
  const joined = await signUpAs(name, email)
  const accepted = await supabase.rpc('accept_invitation', { invitation_token: token })
  if (accepted.error) throw accepted.error
  return joined
}

describe('chat', () => {
  it('starts, renames, shares and deletes conversations', async () => {
    const { workspace } = await ownWorkspace()
    const { user, router } = renderApp(`/w/${workspace.id}/chat`)
    // The list as it is now (each chat page renders its own).
    const list = () => screen.getByRole('navigation', { name: 'Conversations' })
    expect(await screen.findByText('No conversations yet.')).toBeInTheDocument()

    await user.click(screen.getAllByRole('button', { name: 'New conversation' })[0]!)
    await waitFor(() =>
      expect(router.state.location.pathname).toMatch(
        new RegExp(`^/w/${workspace.id}/chat/[0-9a-f-]{36}$`),
      ),
    )
    const id = router.state.location.pathname.split('/').at(-1)!
    expect(await screen.findByText('Private: only you can see it')).toBeInTheDocument()
    expect(await within(list()).findByRole('link', { name: 'New conversation' })).toHaveAttribute(
      'href',
      `/w/${workspace.id}/chat/${id}`,
    )

    await user.click(within(list()).getByRole('button', { name: 'Actions for New conversation' }))
    await user.click(await screen.findByRole('menuitem', { name: 'Rename' }))
    const dialog = await screen.findByRole('dialog', { name: 'Rename conversation' })
    const title = within(dialog).getByLabelText('Title')
    await user.clear(title)
    await user.click(within(dialog).getByRole('button', { name: 'Rename' }))
    expect(await within(dialog).findByText('Give it a title')).toBeInTheDocument()
    await user.type(title, 'Drying methods')
    await user.click(within(dialog).getByRole('button', { name: 'Rename' }))
    await waitFor(() => expect(dialog).not.toBeInTheDocument())
    expect(await within(list()).findByRole('link', { name: 'Drying methods' })).toBeInTheDocument()
    expect(await screen.findByRole('heading', { name: 'Drying methods' })).toBeInTheDocument()

    const slow = slowListReads(3000)
    await user.click(screen.getByRole('button', { name: 'Share' }))
    expect(await screen.findByText('Shared with the workspace')).toBeInTheDocument()
    // The list knows it is shared as soon as the header does, and so does its delete dialog.
    expect(within(list()).getByLabelText('Shared')).toBeInTheDocument()
    const { data: stored } = await supabase.from('conversations').select('title, visibility')
    expect(stored).toEqual([{ title: 'Drying methods', visibility: 'shared' }])

    await user.click(within(list()).getByRole('button', { name: 'Actions for Drying methods' }))
    await user.click(await screen.findByRole('menuitem', { name: 'Delete' }))
    const confirm = await screen.findByRole('alertdialog')
    expect(confirm).toHaveTextContent('deleted for everyone in the workspace')
    await user.click(within(confirm).getByRole('button', { name: 'Delete' }))
    await waitFor(() => expect(router.state.location.pathname).toBe(`/w/${workspace.id}/chat`))
    // Gone from the list while its reads are still held back: not waiting for a refetch.
    expect(await within(list()).findByText('No conversations yet.')).toBeInTheDocument()
    slow.mockRestore()
    const { data: left } = await supabase.from('conversations').select('id')
    expect(left).toEqual([])
  })

  it('keeps the delete confirmation open and says why when the delete fails', async () => {
    const { workspace } = await ownWorkspace()
    const { data: conversation, error } = await supabase
      .from('conversations')
      .insert({ workspace_id: workspace.id, title: 'Seed bank' })
      .select()
      .single()
    if (error) throw error
    const { user } = renderApp(`/w/${workspace.id}/chat`)
    const list = await screen.findByRole('navigation', { name: 'Conversations' })
    await user.click(await within(list).findByRole('button', { name: 'Actions for Seed bank' }))
    await user.click(await screen.findByRole('menuitem', { name: 'Delete' }))
    const confirm = await screen.findByRole('alertdialog')
    // Gone before the click (another tab, say): the delete finds no row to remove.
    await supabase.from('conversations').delete().eq('id', conversation.id)
    await user.click(within(confirm).getByRole('button', { name: 'Delete' }))
    expect(await within(confirm).findByRole('alert')).toHaveTextContent(
      'Only the person who started it can delete it.',
    )
    expect(within(confirm).getByRole('button', { name: 'Delete' })).toBeEnabled()
    await user.click(within(confirm).getByRole('button', { name: 'Keep it' }))
    await waitFor(() => expect(confirm).not.toBeInTheDocument())
  })

  it('answers offline from the documents, with citation chips that open the passage', async () => {
    const { workspace } = await ownWorkspace()
    const { documentId, chunkIds } = await addDocument(workspace.id)
    const { user, router } = renderApp(`/w/${workspace.id}/chat`)
    // Example questions come from the titles and headings of the workspace's own documents.
    const examples = await screen.findByRole('list', { name: 'Example questions' })
    expect(
      within(examples)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual([
      'What does “Herbarium notes” say about Pressing?',
      'What does “Herbarium notes” say about Drying?',
      'What does “Herbarium notes” say about Storage?',
    ])

    await user.type(
      screen.getByRole('textbox', { name: 'Ask a question' }),
      'How were the mangrove samples dried?{Enter}',
    )
    await waitFor(() => expect(router.state.location.pathname).toMatch(/\/chat\/[0-9a-f-]{36}$/))
    // The answer streams into a placeholder, then is the stored row.
    await waitFor(() =>
      expect(screen.getByRole('article', { name: 'Answer' })).toHaveAttribute(
        'data-status',
        'complete',
      ),
    )
    const answer = screen.getByRole('article', { name: 'Answer' })
    expect(answer).toHaveTextContent('Extracted from your documents — no AI model is configured')
    expect(answer).toHaveTextContent(/dried slowly over three weeks/)
    const chips = within(answer).getAllByTestId('citation-chip')
    expect(chips.length).toBeGreaterThan(0)
    const mangrove = `/w/${workspace.id}/documents/${documentId}?chunk=${chunkIds[1]}`
    expect(chips.map((chip) => chip.getAttribute('href'))).toContain(mangrove)
    expect(chips[0]).toHaveAccessibleName(/^Source 1: Herbarium notes, p\. \d/)
    // Offline, the same question over the same library would be answered the same.
    const regenerate = within(answer).getByRole('button', { name: 'Regenerate' })
    await waitFor(() => expect(regenerate).toHaveAttribute('aria-disabled', 'true'))
    expect(regenerate).toHaveAccessibleDescription(/regenerating would give this answer again/)
    await user.click(regenerate)
    expect(screen.getAllByRole('article', { name: 'Answer' })).toHaveLength(1)
    expect(screen.getByTestId('user-message')).toHaveTextContent(
      'How were the mangrove samples dried?',
    )
    // The first question named the conversation.
    expect(
      await screen.findByRole('heading', { name: 'How were the mangrove samples dried?' }),
    ).toBeInTheDocument()

    const { data: messages } = await supabase
      .from('messages')
      .select('role, status, extractive, citations')
      .order('created_at')
    expect(messages).toMatchObject([
      { role: 'user', status: 'complete' },
      { role: 'assistant', status: 'complete', extractive: true },
    ])
    await user.click(within(answer).getByRole('button', { name: 'Good answer' }))
    const feedback = await screen.findByRole('dialog', { name: 'What was good?' })
    await user.type(within(feedback).getByLabelText('Comment'), 'Exactly the passage')
    await user.click(within(feedback).getByRole('button', { name: 'Save comment' }))
    await waitFor(async () => {
      const { data } = await supabase.from('message_feedback').select('rating, comment')
      expect(data).toEqual([{ rating: 1, comment: 'Exactly the passage' }])
    })
    await waitFor(() =>
      expect(within(answer).getByRole('button', { name: 'Good answer' })).toHaveAttribute(
        'aria-pressed',
        'true',
      ),
    )

    // Stored, so all of it is there after a reload, the rating too.
    const path = router.state.location.pathname
    cleanup()
    const again = renderApp(path)
    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'Good answer' })).toHaveAttribute(
        'aria-pressed',
        'true',
      ),
    )
    const stored = screen.getByRole('article', { name: 'Answer' })
    expect(stored).toHaveTextContent('Extracted from your documents')
    const chip = within(stored)
      .getAllByTestId('citation-chip')
      .find((c) => c.getAttribute('href') === mangrove)!
    // A chip opens its passage beside the conversation (a sheet on this narrow window), with
    // the cited sentence marked; the URL records it, so Back closes it.
    await again.user.click(chip)
    const panel = await screen.findByRole('dialog', { name: 'Herbarium notes' })
    expect(again.router.state.location.pathname).toBe(path)
    expect(again.router.state.location.search).toMatch(/^\?cite=[0-9a-f-]{36}%3A\d+$/)
    expect(panel).toHaveTextContent(/Source \d · p\. 2/)
    const mark = await within(panel).findByText(/dried slowly over three weeks/)
    expect(mark.tagName).toBe('MARK')
    await again.router.navigate(-1)
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument())
    expect(again.router.state.location.search).toBe('')
    expect(screen.getByRole('article', { name: 'Answer' })).toBeInTheDocument()

    // Escape closes it too, stepping back rather than stacking entries.
    await again.user.click(chip)
    await screen.findByRole('dialog', { name: 'Herbarium notes' })
    await again.user.keyboard('{Escape}')
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument())
    expect(again.router.state.location.search).toBe('')
    expect(again.router.state.historyAction).toBe('POP')

    await again.user.click(chip)
    const reopened = await screen.findByRole('dialog', { name: 'Herbarium notes' })
    await again.user.click(within(reopened).getByRole('link', { name: 'Open the full document' }))
    await waitFor(() =>
      expect(`${again.router.state.location.pathname}${again.router.state.location.search}`).toBe(
        mangrove,
      ),
    )
  })

  it('opens a shared link to a citation, and says so when its passage has gone', async () => {
    const { workspace } = await ownWorkspace()
    const { chunkIds } = await addDocument(workspace.id)
    const { data: conversation } = await supabase
      .from('conversations')
      .insert({ workspace_id: workspace.id, title: 'Drying' })
      .select('id')
      .single()
    await ask(conversation!.id, 'How were the mangrove samples dried?')
    const { data: stored } = await supabase
      .from('messages')
      .select('id, citations')
      .eq('role', 'assistant')
      .single()
    const cited = (stored!.citations as { n: number; chunk_id: string }[]).find(
      (c) => c.chunk_id === chunkIds[1],
    )!
    await supabase.from('chunks').delete().eq('id', chunkIds[1]!)

    const { user, router } = renderApp(
      `/w/${workspace.id}/chat/${conversation!.id}?cite=${stored!.id}:${cited.n}`,
    )
    const panel = await screen.findByRole('dialog', { name: 'Herbarium notes' })
    expect(
      await within(panel).findByText(/This passage is no longer in the document/),
    ).toBeInTheDocument()
    expect(within(panel).getByText(/dried slowly over three weeks/).tagName).toBe('MARK')
    // Opened from a link, closing stays on the conversation rather than leaving it.
    await user.click(within(panel).getByRole('button', { name: 'Close' }))
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument())
    expect(router.state.location.pathname).toBe(`/w/${workspace.id}/chat/${conversation!.id}`)
    expect(router.state.location.search).toBe('')
  })

  it('offers no example questions for an empty library', async () => {
    const { workspace } = await ownWorkspace()
    renderApp(`/w/${workspace.id}/chat`)
    expect(await screen.findByText(/Add documents to the library to start/)).toBeInTheDocument()
    expect(screen.queryByRole('list', { name: 'Example questions' })).not.toBeInTheDocument()
  })

  it('says when no passage answers, showing the closest passages as cards to open', async () => {
    const { workspace } = await ownWorkspace()
    const { documentId, chunkIds } = await addDocument(workspace.id)
    const { user } = renderApp(`/w/${workspace.id}/chat`)
    await user.type(
      await screen.findByRole('textbox', { name: 'Ask a question' }),
      'ferns mosses{Enter}',
    )
    await waitFor(() =>
      expect(screen.getByRole('article', { name: 'Answer' })).toHaveAttribute(
        'data-status',
        'complete',
      ),
    )
    const answer = screen.getByRole('article', { name: 'Answer' })
    expect(answer).toHaveTextContent("I couldn't find a passage that answers this.")
    const cards = within(answer).getAllByTestId('passage-card')
    expect(cards.length).toBeGreaterThanOrEqual(2)
    const ferns = cards.find((card) => card.textContent?.includes('Pressed ferns'))!
    expect(ferns).toHaveTextContent('Herbarium notes')
    expect(ferns).toHaveTextContent('p. 1')
    const open = within(ferns).getByRole('link', {
      name: 'Open the passage in Herbarium notes, p. 1',
    })
    expect(open).toHaveAttribute(
      'href',
      `/w/${workspace.id}/documents/${documentId}?chunk=${chunkIds[0]}`,
    )
    expect(within(answer).queryByText(/^Sources \(/)).not.toBeInTheDocument()
  })

  it('stops from the moment a question is sent: idle again, the question kept', async () => {
    const { workspace } = await ownWorkspace()
    await addDocument(workspace.id)
    const { data: conversation, error } = await supabase
      .from('conversations')
      .insert({ workspace_id: workspace.id, title: 'Stopping' })
      .select()
      .single()
    if (error) throw error
    const { user } = renderApp(`/w/${workspace.id}/chat/${conversation.id}`)
    await user.type(
      await screen.findByRole('textbox', { name: 'Ask a question' }),
      'How are mosses kept?{Enter}',
    )
    // Stop is there at once, before any token has arrived.
    await user.click(screen.getByRole('button', { name: 'Stop' }))
    expect(await screen.findByRole('button', { name: 'Send' })).toBeInTheDocument()
    expect(screen.getByTestId('user-message')).toHaveTextContent('How are mosses kept?')
    const answer = screen.getByRole('article', { name: 'Answer' })
    expect(answer).toHaveTextContent('Stopped')
    expect(within(answer).queryByRole('status')).not.toBeInTheDocument()
    // Whatever the function wrote meanwhile, the question shows once.
    await new Promise((resolve) => setTimeout(resolve, 500))
    expect(screen.getAllByTestId('user-message')).toHaveLength(1)
  })

  it('shows a teammate nothing of a private conversation until its creator shares it', async () => {
    const { owner, workspace } = await ownWorkspace()
    await addDocument(workspace.id)
    const { data: conversation, error } = await supabase
      .from('conversations')
      .insert({ workspace_id: workspace.id, title: 'My private notes' })
      .select()
      .single()
    if (error) throw error
    await ask(conversation.id, 'How are mosses kept?')
    const gus = await joinAs(workspace.id, 'Gus')

    const first = renderApp(`/w/${workspace.id}/chat/${conversation.id}`)
    expect(await screen.findByText('Conversation not found')).toBeInTheDocument()
    const list = screen.getByRole('navigation', { name: 'Conversations' })
    expect(await within(list).findByText('No conversations yet.')).toBeInTheDocument()
    expect((await supabase.from('conversations').select('id')).data).toEqual([])
    expect((await supabase.from('messages').select('id')).data).toEqual([])
    first.unmount()

    await signOutLocally()
    await signInAs(owner.email)
    await supabase.from('conversations').update({ visibility: 'shared' }).eq('id', conversation.id)
    await signOutLocally()
    await signInAs(gus.email)

    renderApp(`/w/${workspace.id}/chat/${conversation.id}`)
    expect(await screen.findByText('Shared by Olivia')).toBeInTheDocument()
    expect(await screen.findByTestId('user-message')).toHaveTextContent('How are mosses kept?')
    expect(await screen.findByRole('article', { name: 'Answer' })).toHaveTextContent(
      /kept loose in paper packets/,
    )
    const shared = screen.getByRole('navigation', { name: 'Conversations' })
    expect(within(shared).getByRole('link', { name: /My private notes/ })).toHaveTextContent(
      'by Olivia',
    )
    // Not theirs: no menu to rename, share or delete it.
    expect(within(shared).queryByRole('button', { name: /^Actions for/ })).not.toBeInTheDocument()
  })

  it('tells a teammate live that the open conversation was deleted, and by whom', async () => {
    const { owner, workspace } = await ownWorkspace()
    await addDocument(workspace.id)
    const { data: conversation, error } = await supabase
      .from('conversations')
      .insert({ workspace_id: workspace.id, title: 'Pressing', visibility: 'shared' })
      .select()
      .single()
    if (error) throw error
    await ask(conversation.id, 'How are mosses kept?')
    await joinAs(workspace.id, 'Gus')
    // Olivia, in another tab of her own.
    const olivia = createClient(env.SUPABASE_URL, env.SUPABASE_PUBLISHABLE_KEY, {
      auth: { persistSession: false, autoRefreshToken: false },
    })
    const signedIn = await olivia.auth.signInWithPassword({
      email: owner.email,
      password: PASSWORD,
    })
    if (signedIn.error) throw signedIn.error

    const { user, router } = renderApp(`/w/${workspace.id}/chat/${conversation.id}`)
    expect(await screen.findByTestId('user-message')).toHaveTextContent('How are mosses kept?')
    const box = screen.getByRole('textbox', { name: 'Ask a question' })
    await user.type(box, 'And ferns?')
    // Deleted only once the list's channel listens (it joined with the page).
    await waitFor(() =>
      expect(supabase.getChannels().every((c) => c.state === 'joined')).toBe(true),
    )
    const removed = await olivia.from('conversations').delete().eq('id', conversation.id).select()
    expect(removed.data).toHaveLength(1)

    const notice = await screen.findByRole('region', { name: 'Conversation deleted' })
    expect(within(notice).getByRole('alert')).toHaveTextContent(
      'This conversation was deleted by Olivia.',
    )
    expect(box).toBeDisabled()
    expect(screen.getByRole('button', { name: 'Send' })).toBeDisabled()
    const back = within(notice).getByRole('link', { name: 'Back to conversations' })
    await waitFor(() => expect(back).toHaveFocus())
    expect(screen.queryByText('Conversation not found')).not.toBeInTheDocument()
    await user.click(back)
    await waitFor(() => expect(router.state.location.pathname).toBe(`/w/${workspace.id}/chat`))
  })
})
