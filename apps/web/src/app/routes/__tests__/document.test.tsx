import { screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import { supabase } from '@/lib/supabase'
import { renderApp } from '@/testing/render-app'
import { inviteByEmail, signOutLocally, signUpAs, uniqueEmail } from '@/testing/users'

const notes = [
  'Field notes from the estuary survey.',
  'The mangrove samples were dried slowly to keep their leaves intact; each sheet was labelled.',
  'Mosses need no pressing and are kept loose in paper packets.',
].join('\n\n')

/**
 * A workspace the signed-in owner made, with a plain-text document of three chunks and its
 * extracted `text` (none when null).
 */
async function workspaceWithDocument(
  extra: Record<string, unknown> = {},
  text: string | null = notes,
) {
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
      page_count: 3,
      chunk_count: 3,
      periods: ['2019', 'December 31, 2019'],
      status: 'ready',
      stage: 'ready',
      progress: 1,
      ...extra,
    })
    .select('id')
    .single()
  if (docError) throw docError
  if (text !== null) {
    const stored = await supabase
      .from('document_texts')
      .insert({ document_id: document.id, workspace_id: workspace.id, text })
    if (stored.error) throw stored.error
  }
  const path = `${workspace.id}/${document.id}/survey-notes.txt`
  const uploaded = await supabase.storage
    .from('documents')
    .upload(path, new Blob([notes], { type: 'text/plain' }))
  if (uploaded.error) throw uploaded.error
  await supabase.from('documents').update({ storage_path: path }).eq('id', document.id)
  const paragraphs = notes.split('\n\n')
  let offset = 0
  const rows = paragraphs.map((content, ordinal) => {
    const start = notes.indexOf(content, offset)
    offset = start + content.length
    return {
      document_id: document.id,
      workspace_id: workspace.id,
      ordinal,
      content,
      char_start: start,
      char_end: start + content.length,
      page_start: ordinal + 1,
      page_end: ordinal + 1,
    }
  })
  const { data: chunks, error: chunkError } = await supabase
    .from('chunks')
    .insert(rows)
    .select('id, char_start, char_end')
    .order('ordinal')
  if (chunkError) throw chunkError
  return { workspace, documentId: document.id, chunks }
}

async function joinAsViewer(workspaceId: string) {
  const email = uniqueEmail('viewer')
  const token = await inviteByEmail(workspaceId, email)
  await signOutLocally()
  await signUpAs('Vera Viewer', email)
  const accepted = await supabase.rpc('accept_invitation', { invitation_token: token })
  if (accepted.error) throw accepted.error
}

const header = () => screen.getByRole('region', { name: 'Document details' })

describe('document page', () => {
  it('shows the metadata, and highlights exactly the linked chunk’s slice', async () => {
    const { workspace, documentId, chunks } = await workspaceWithDocument()
    const chunk = chunks[1]!
    const { user, router } = renderApp(
      `/w/${workspace.id}/documents/${documentId}?chunk=${chunk.id}`,
    )
    expect(await screen.findByRole('heading', { name: 'Survey notes.txt' })).toBeInTheDocument()
    const meta = within(header())
    expect(meta.getByText('Text')).toBeInTheDocument()
    expect(meta.getByText('2.0 KB')).toBeInTheDocument()
    expect(meta.getByText('2019, December 31, 2019')).toBeInTheDocument()
    expect(meta.getByText('Olivia Owner')).toBeInTheDocument()
    expect(meta.getByText('Ready')).toBeInTheDocument()
    expect(meta.getByRole('button', { name: 'Download' })).toBeInTheDocument()

    const passage = await screen.findByRole('region', { name: 'Passage' })
    expect(passage).toHaveTextContent('Highlighted passage on page 2')
    await waitFor(() => expect(document.querySelectorAll('mark')).toHaveLength(1))
    const marks = document.querySelectorAll('mark')
    expect(marks[0]!.textContent).toBe(notes.slice(chunk.char_start!, chunk.char_end!))
    // The rest of the text is there, unmarked, around it.
    expect(marks[0]!.parentElement!.textContent).toBe(notes)

    await user.click(within(passage).getByRole('button', { name: 'Clear highlight' }))
    await waitFor(() => expect(document.querySelector('mark')).toBeNull())
    expect(router.state.location.search).toBe('')
    expect(screen.queryByRole('region', { name: 'Passage' })).toBeNull()
  })

  it('marks the passage in a Markdown document’s formatted text', async () => {
    const markdown = '# Survey\n\nThe **mangrove** samples were dried.\n\n- one\n- two'
    const { workspace, documentId } = await workspaceWithDocument(
      {
        title: 'Survey.docx',
        mime_type: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      },
      markdown,
    )
    const start = markdown.indexOf('The')
    const end = markdown.indexOf('dried.') + 'dried.'.length
    const { data: chunk } = await supabase
      .from('chunks')
      .update({ char_start: start, char_end: end, content: markdown.slice(start, end) })
      .eq('document_id', documentId)
      .eq('ordinal', 0)
      .select('id')
      .single()
    renderApp(`/w/${workspace.id}/documents/${documentId}?chunk=${chunk!.id}`)
    expect(await screen.findByRole('heading', { name: 'Survey', level: 1 })).toBeInTheDocument()
    expect(within(header()).getByText('Word')).toBeInTheDocument()
    await waitFor(() => expect(document.querySelectorAll('mark')).toHaveLength(3))
    const marked = [...document.querySelectorAll('mark')].map((m) => m.textContent).join('')
    expect(marked).toBe('The mangrove samples were dried.')
    expect(screen.getByText('mangrove').tagName).toBe('MARK')
    expect(screen.getByText('one').querySelector('mark')).toBeNull()
  })

  it('offers a PDF’s text too, with the passage marked exactly there', async () => {
    const { workspace, documentId, chunks } = await workspaceWithDocument({
      title: 'Survey.pdf',
      mime_type: 'application/pdf',
    })
    const chunk = chunks[2]!
    const { user } = renderApp(`/w/${workspace.id}/documents/${documentId}?chunk=${chunk.id}`)
    const passage = await screen.findByRole('region', { name: 'Passage' })
    expect(await within(passage).findByText('Highlighted passage on page 3')).toBeInTheDocument()
    // Where the pages cannot be drawn, the passage's own words are still in the banner.
    expect(within(passage).getByText(/Mosses need no pressing/)).toBeInTheDocument()
    const view = screen.getByRole('group', { name: 'View' })
    expect(within(view).getByRole('button', { name: 'Pages' })).toHaveAttribute(
      'aria-pressed',
      'true',
    )
    await user.click(within(view).getByRole('button', { name: 'Text' }))
    await waitFor(() => expect(document.querySelectorAll('mark')).toHaveLength(1))
    expect(document.querySelector('mark')!.textContent).toBe(
      notes.slice(chunk.char_start!, chunk.char_end!),
    )
  })

  it('says so when the linked passage is not in the document any more', async () => {
    const { workspace, documentId } = await workspaceWithDocument()
    renderApp(`/w/${workspace.id}/documents/${documentId}?chunk=${crypto.randomUUID()}`)
    const passage = await screen.findByRole('region', { name: 'Passage' })
    expect(
      await within(passage).findByText('That passage is no longer in this document.'),
    ).toBeInTheDocument()
    expect(await screen.findByText(/The mangrove samples were dried slowly/)).toBeInTheDocument()
    expect(document.querySelector('mark')).toBeNull()
  })

  it('lets an editor rename the document', async () => {
    const { workspace, documentId } = await workspaceWithDocument()
    const { user } = renderApp(`/w/${workspace.id}/documents/${documentId}`)
    expect(await screen.findByRole('button', { name: 'Replace' })).toBeInTheDocument()
    await user.click(screen.getByRole('button', { name: 'Rename' }))
    const dialog = await screen.findByRole('dialog', { name: 'Rename document' })
    const title = within(dialog).getByLabelText('Title')
    await user.clear(title)
    await user.click(within(dialog).getByRole('button', { name: 'Save' }))
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Give the document a title.')
    await user.type(title, 'Estuary survey')
    await user.click(within(dialog).getByRole('button', { name: 'Save' }))
    expect(await screen.findByRole('heading', { name: 'Estuary survey' })).toBeInTheDocument()
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
    const { data } = await supabase.from('documents').select('title').eq('id', documentId).single()
    expect(data?.title).toBe('Estuary survey')
  })

  it('lets an editor set the periods and names search favours the document for', async () => {
    const { workspace, documentId } = await workspaceWithDocument({
      title: 'Survey notes',
      file_name: 'SURVEY_NOTES_2019.txt',
    })
    const { user } = renderApp(`/w/${workspace.id}/documents/${documentId}`)
    expect(await screen.findByRole('heading', { name: 'Survey notes' })).toBeInTheDocument()
    // The file name is a detail of the header.
    expect(within(header()).getByText('SURVEY_NOTES_2019.txt')).toBeInTheDocument()
    await user.click(await screen.findByRole('button', { name: 'Details' }))
    const dialog = await screen.findByRole('dialog', { name: 'Edit details' })
    const field = within(dialog).getByLabelText('Period')
    expect(field).toHaveValue('2019, December 31, 2019')
    expect(field).toHaveFocus()
    await user.clear(field)
    await user.type(field, Array.from({ length: 21 }, (_, i) => 2000 + i).join(','))
    await user.click(within(dialog).getByRole('button', { name: 'Save' }))
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Name at most 20 periods.')
    await user.clear(field)
    await user.type(field, 'FY2020, Q2 2020 ,, FY2020')
    await user.type(
      within(dialog).getByLabelText('Names'),
      'Estuary Trust Ltd., Harbour Board, Estuary Trust Ltd.',
    )
    await user.click(within(dialog).getByRole('button', { name: 'Save' }))
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
    expect(await within(header()).findByText('FY2020, Q2 2020')).toBeInTheDocument()
    expect(within(header()).getByText('Estuary Trust Ltd., Harbour Board')).toBeInTheDocument()
    const { data } = await supabase
      .from('documents')
      .select('periods, names')
      .eq('id', documentId)
      .single()
    expect(data).toEqual({
      periods: ['FY2020', 'Q2 2020'],
      names: ['Estuary Trust Ltd.', 'Harbour Board'],
    })
  })

  it('deletes the document after confirmation and returns to the library', async () => {
    const { workspace, documentId } = await workspaceWithDocument()
    const { user, router } = renderApp(`/w/${workspace.id}/documents/${documentId}`)
    await user.click(await screen.findByRole('button', { name: 'Delete' }))
    const dialog = await screen.findByRole('alertdialog')
    expect(dialog).toHaveTextContent('Delete “Survey notes.txt”?')
    await user.click(within(dialog).getByRole('button', { name: 'Delete document' }))
    await waitFor(() => expect(router.state.location.pathname).toBe(`/w/${workspace.id}/library`))
    const { data } = await supabase.from('documents').select('id').eq('id', documentId)
    expect(data).toEqual([])
    const { data: chunks } = await supabase
      .from('chunks')
      .select('id')
      .eq('document_id', documentId)
    expect(chunks).toEqual([])
    const { data: files } = await supabase.storage
      .from('documents')
      .list(`${workspace.id}/${documentId}`)
    expect(files).toEqual([])
  })

  // The phone header's menu: the buttons it stands for are hidden by CSS below 640 px, which
  // the test DOM does not apply, so the menu is driven here directly.
  it('offers Rename and Delete in the More actions menu, giving focus back to it', async () => {
    const { workspace, documentId } = await workspaceWithDocument()
    const { user, router } = renderApp(`/w/${workspace.id}/documents/${documentId}`)
    const more = await screen.findByRole('button', { name: 'More actions' })
    await user.click(more)
    await user.click(await screen.findByRole('menuitem', { name: 'Rename' }))
    const rename = await screen.findByRole('dialog', { name: 'Rename document' })
    expect(within(rename).getByLabelText('Title')).toHaveValue('Survey notes.txt')
    await user.keyboard('{Escape}')
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
    // Not lost to the page: the menu item that opened the dialog is gone.
    await waitFor(() => expect(more).toHaveFocus())

    await user.click(more)
    await user.click(await screen.findByRole('menuitem', { name: 'Delete' }))
    const confirm = await screen.findByRole('alertdialog')
    expect(confirm).toHaveTextContent('Delete “Survey notes.txt”?')
    await user.click(within(confirm).getByRole('button', { name: 'Delete document' }))
    await waitFor(() => expect(router.state.location.pathname).toBe(`/w/${workspace.id}/library`))
    const { data } = await supabase.from('documents').select('id').eq('id', documentId)
    expect(data).toEqual([])
  })

  it('shows a viewer the document without any action that changes it', async () => {
    const { workspace, documentId } = await workspaceWithDocument()
    await joinAsViewer(workspace.id)
    renderApp(`/w/${workspace.id}/documents/${documentId}`)
    expect(await screen.findByRole('heading', { name: 'Survey notes.txt' })).toBeInTheDocument()
    expect(await screen.findByText(/The mangrove samples were dried slowly/)).toBeInTheDocument()
    expect(within(header()).getByRole('button', { name: 'Download' })).toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Replace' })).toBeNull()
    expect(screen.queryByRole('button', { name: 'Rename' })).toBeNull()
    expect(screen.queryByRole('button', { name: 'Delete' })).toBeNull()
    expect(screen.queryByRole('button', { name: 'More actions' })).toBeNull()
  })

  it('says a missing document is not found, with a way back to the library', async () => {
    const { workspace } = await workspaceWithDocument()
    for (const id of [crypto.randomUUID(), 'not-a-uuid']) {
      const { unmount } = renderApp(`/w/${workspace.id}/documents/${id}`)
      expect(await screen.findByText('Document not found')).toBeInTheDocument()
      expect(screen.getByRole('link', { name: 'Back to the library' })).toHaveAttribute(
        'href',
        `/w/${workspace.id}/library`,
      )
      unmount()
    }
  })

  it('follows processing live and shows why a document failed', async () => {
    const { workspace, documentId } = await workspaceWithDocument(
      { status: 'processing', stage: 'extracting', progress: 0.4 },
      null,
    )
    renderApp(`/w/${workspace.id}/documents/${documentId}`)
    expect(await screen.findByText('Extracting text… 40%')).toBeInTheDocument()
    // Give the realtime subscription a moment to join before the row changes.
    await new Promise((resolve) => setTimeout(resolve, 500))
    await supabase
      .from('documents')
      .update({ stage: 'indexing', progress: 0.8 })
      .eq('id', documentId)
    expect(await screen.findByText('Indexing… 80%')).toBeInTheDocument()
    await supabase
      .from('documents')
      .update({ status: 'failed', error: 'This PDF has no text layer (scanned?)' })
      .eq('id', documentId)
    expect(await screen.findByText('This document could not be read')).toBeInTheDocument()
    expect(screen.getByRole('alert')).toHaveTextContent('This PDF has no text layer (scanned?)')
    expect(within(header()).getByText('Failed')).toBeInTheDocument()
  })
  it('does not call a live import stopped when this browser’s clock is minutes fast', async () => {
    const { workspace, documentId } = await workspaceWithDocument(
      { status: 'processing', stage: 'indexing', progress: 0.5 },
      null,
    )
    const realNow = Date.now.bind(Date)
    // updated_at is the database's just now; this clock reads it as ten minutes old.
    vi.spyOn(Date, 'now').mockImplementation(() => realNow() + 10 * 60_000)
    try {
      renderApp(`/w/${workspace.id}/documents/${documentId}`)
      expect(await screen.findByText('Indexing… 50%')).toBeInTheDocument()
      // Still so once the database's time has been read (a round trip) and the label aged.
      await new Promise((resolve) => setTimeout(resolve, 1000))
      expect(screen.getByText('Processing this document')).toBeInTheDocument()
      expect(screen.queryByText('The import of this document stopped')).toBeNull()
      expect(within(header()).queryByText('Interrupted')).toBeNull()
    } finally {
      vi.restoreAllMocks()
    }
  })
})
