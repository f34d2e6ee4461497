import { screen, waitFor, within } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { supabase } from '@/lib/supabase'
import { renderApp } from '@/testing/render-app'
import { inviteByEmail, signOutLocally, signUpAs, uniqueEmail } from '@/testing/users'

type NewDocument = {
  title: string
  file_name?: string
  periods?: string[]
  status?: string
  stage?: string
  progress?: number
  mime_type?: string
  size_bytes?: number
  page_count?: number
  chunk_count?: number
  error?: string
  created_at?: string
  updated_at?: string
  storage_path?: string
}

async function ownWorkspace() {
  const owner = await signUpAs('Ada Owner', uniqueEmail('owner'))
  const { data, error } = await supabase
    .from('workspaces')
    .insert({ name: 'Archive' })
    .select()
    .single()
  if (error) throw error
  return { owner, workspace: data }
}

async function addDocuments(workspaceId: string, documents: NewDocument[]) {
  const { data, error } = await supabase
    .from('documents')
    .insert(
      documents.map((d) => ({ status: 'ready', stage: 'ready', ...d, workspace_id: workspaceId })),
      // Columns a row leaves out take their defaults, not null.
      { defaultToNull: false },
    )
    .select('id, title')
  if (error) throw error
  return data
}

const table = () => screen.findByRole('table', { name: 'Documents' })
const rowOf = async (title: string) =>
  (await within(await table()).findByRole('link', { name: title })).closest<HTMLElement>(
    '[role="row"]',
  )!
const titles = () =>
  within(screen.getByRole('table', { name: 'Documents' }))
    .queryAllByRole('link')
    .map((link) => link.textContent)

describe('library', () => {
  it('lists the documents with their details and shows status changes live', async () => {
    const { workspace } = await ownWorkspace()
    const [report] = await addDocuments(workspace.id, [
      {
        title: 'Annual report.pdf',
        mime_type: 'application/pdf',
        size_bytes: 1_572_864,
        page_count: 42,
        chunk_count: 180,
      },
      {
        title: 'Broken scan.pdf',
        status: 'failed',
        error: 'this PDF has no text layer (scanned?)',
        mime_type: 'application/pdf',
      },
    ])
    const { router } = renderApp(`/w/${workspace.id}/library`)

    const row = await rowOf('Annual report.pdf')
    expect(within(row).getByRole('link')).toHaveAttribute(
      'href',
      `/w/${workspace.id}/documents/${report!.id}`,
    )
    for (const text of ['PDF', '1.5 MB', '42', '180', 'Ada Owner', 'Ready'])
      expect(within(row).getByText(text)).toBeInTheDocument()
    const broken = await rowOf('Broken scan.pdf')
    expect(within(broken).getByText('Failed')).toBeInTheDocument()
    expect(within(broken).getByText('this PDF has no text layer (scanned?)')).toBeInTheDocument()

    // Another upload starts: it appears, then its progress moves, without a reload.
    const [notes] = await addDocuments(workspace.id, [
      { title: 'Field notes.md', status: 'processing', stage: 'uploading', progress: 0 },
    ])
    const live = await rowOf('Field notes.md')
    expect(within(live).getByText('Uploading… 0%')).toBeInTheDocument()
    await supabase
      .from('documents')
      .update({ stage: 'indexing', progress: 0.75 })
      .eq('id', notes!.id)
    expect(await within(live).findByText('Indexing… 75%')).toBeInTheDocument()
    expect(within(live).getByRole('progressbar', { name: 'Indexing' })).toHaveAttribute(
      'aria-valuenow',
      '75',
    )
    await supabase
      .from('documents')
      .update({ status: 'ready', stage: 'ready', progress: 1, chunk_count: 3 })
      .eq('id', notes!.id)
    expect(await within(live).findByText('Ready')).toBeInTheDocument()

    // Away and straight back: the list is live again (a new subscription, not the old one's).
    await router.navigate(`/w/${workspace.id}/members`)
    await router.navigate(`/w/${workspace.id}/library`)
    await rowOf('Field notes.md')
    // Deleted elsewhere: the row goes.
    await supabase.from('documents').delete().eq('id', notes!.id)
    await waitFor(() => expect(titles()).not.toContain('Field notes.md'))
  })

  it('shows how much storage the files take, as Storage counts it, and follows changes', async () => {
    const { workspace } = await ownWorkspace()
    // What a documents row declares is not what the workspace stores.
    const [notes] = await addDocuments(workspace.id, [{ title: 'Notes.txt', size_bytes: 999_999 }])
    const store = (name: string, size: number) =>
      supabase.storage
        .from('documents')
        .upload(`${workspace.id}/${notes!.id}/${name}`, new Uint8Array(size))
    expect((await store('notes.txt', 1536)).error).toBeNull()
    renderApp(`/w/${workspace.id}/library`)

    expect(await screen.findByText('Storage: 1.5 KB of 1.0 GB used')).toBeInTheDocument()
    expect(screen.getByRole('progressbar', { name: 'Storage used' })).toHaveAttribute(
      'aria-valuenow',
      '0',
    )
    // Another file is stored and a document changes: the figure is read again.
    expect((await store('more.txt', 3 * 1024 ** 2)).error).toBeNull()
    await supabase.from('documents').update({ title: 'Notes, more.txt' }).eq('id', notes!.id)
    expect(
      await screen.findByText('Storage: 3.0 MB of 1.0 GB used', {}, { timeout: 10_000 }),
    ).toBeInTheDocument()
  })

  it('shows each title with its file name and period, finds it by either, and renames it', async () => {
    const { workspace } = await ownWorkspace()
    await addDocuments(workspace.id, [
      {
        title: 'Harbour Board 2019 Annual',
        file_name: 'HARBOUR_BOARD_2019_ANNUAL.pdf',
        periods: ['2019', 'December 31, 2019'],
      },
      { title: 'Tide tables', file_name: 'tides.csv' },
    ])
    const { user } = renderApp(`/w/${workspace.id}/library`)
    const row = within(await rowOf('Harbour Board 2019 Annual'))
    expect(
      row.getByText('HARBOUR_BOARD_2019_ANNUAL.pdf · 2019, December 31, 2019'),
    ).toBeInTheDocument()
    expect(within(await rowOf('Tide tables')).getByText('tides.csv')).toBeInTheDocument()

    const search = screen.getByRole('searchbox', { name: 'Search titles and file names' })
    await user.type(search, 'tides.csv')
    expect(titles()).toEqual(['Tide tables'])
    await user.clear(search)
    await user.type(search, 'harbour annual')
    expect(titles()).toEqual(['Harbour Board 2019 Annual'])

    // Filtering lays the rows out again: the row is found afresh.
    await user.click(
      within(await rowOf('Harbour Board 2019 Annual')).getByRole('button', {
        name: 'Actions for Harbour Board 2019 Annual',
      }),
    )
    await user.click(await screen.findByRole('menuitem', { name: 'Rename' }))
    const dialog = await screen.findByRole('dialog', { name: 'Rename document' })
    expect(dialog).toHaveTextContent('The file keeps its name, “HARBOUR_BOARD_2019_ANNUAL.pdf”.')
    const input = within(dialog).getByLabelText('Title')
    expect(input).toHaveValue('Harbour Board 2019 Annual')
    await user.clear(input)
    await user.type(input, 'Harbour Board annual report 2019')
    await user.click(within(dialog).getByRole('button', { name: 'Save' }))
    const renamed = within(await rowOf('Harbour Board annual report 2019'))
    expect(
      renamed.getByText('HARBOUR_BOARD_2019_ANNUAL.pdf · 2019, December 31, 2019'),
    ).toBeInTheDocument()
  })

  it('searches titles, filters by status and type, and sorts', async () => {
    const { workspace } = await ownWorkspace()
    await addDocuments(workspace.id, [
      {
        title: 'Zebra migration.pdf',
        mime_type: 'application/pdf',
        size_bytes: 5000,
        created_at: '2026-01-03T00:00:00Z',
      },
      {
        title: 'alpine flora.docx',
        size_bytes: 90_000,
        created_at: '2026-01-01T00:00:00Z',
      },
      {
        title: 'Migration routes.csv',
        mime_type: 'text/csv',
        size_bytes: 10,
        status: 'failed',
        error: 'the file is empty',
        created_at: '2026-01-02T00:00:00Z',
      },
      {
        title: 'Old upload.txt',
        status: 'processing',
        stage: 'extracting',
        created_at: '2025-12-01T00:00:00Z',
        updated_at: '2025-12-01T00:05:00Z',
      },
    ])
    const { user } = renderApp(`/w/${workspace.id}/library`)
    await table()
    // Newest first by default.
    expect(titles()).toEqual([
      'Zebra migration.pdf',
      'Migration routes.csv',
      'alpine flora.docx',
      'Old upload.txt',
    ])
    // A processing document that stopped moving long ago was interrupted.
    expect(
      await within(await rowOf('Old upload.txt')).findByText('Interrupted'),
    ).toBeInTheDocument()

    await user.type(
      screen.getByRole('searchbox', { name: 'Search titles and file names' }),
      'migration',
    )
    expect(titles()).toEqual(['Zebra migration.pdf', 'Migration routes.csv'])

    await user.click(screen.getByRole('combobox', { name: 'Status' }))
    await user.click(await screen.findByRole('option', { name: 'Failed' }))
    expect(titles()).toEqual(['Migration routes.csv'])

    await user.click(screen.getByRole('combobox', { name: 'Type' }))
    await user.click(await screen.findByRole('option', { name: 'PDF' }))
    expect(await screen.findByText('No documents match')).toBeInTheDocument()
    await user.click(screen.getByRole('button', { name: 'Clear filters' }))
    expect(titles()).toHaveLength(4)

    await user.click(screen.getByRole('combobox', { name: 'Type' }))
    await user.click(await screen.findByRole('option', { name: 'Word' }))
    expect(titles()).toEqual(['alpine flora.docx'])
    await user.click(screen.getByRole('combobox', { name: 'Type' }))
    await user.click(await screen.findByRole('option', { name: 'All types' }))

    await user.click(screen.getByRole('combobox', { name: 'Sort' }))
    await user.click(await screen.findByRole('option', { name: 'Title A–Z' }))
    expect(titles()).toEqual([
      'alpine flora.docx',
      'Migration routes.csv',
      'Old upload.txt',
      'Zebra migration.pdf',
    ])
    expect(screen.getByRole('columnheader', { name: 'Title' })).toHaveAttribute(
      'aria-sort',
      'ascending',
    )
    await user.click(screen.getByRole('combobox', { name: 'Sort' }))
    await user.click(await screen.findByRole('option', { name: 'Largest first' }))
    expect(titles()).toEqual([
      'alpine flora.docx',
      'Zebra migration.pdf',
      'Migration routes.csv',
      'Old upload.txt',
    ])
  })

  it('renames and deletes a document, its original in Storage included', async () => {
    const { workspace } = await ownWorkspace()
    const path = `${workspace.id}/${crypto.randomUUID()}/minutes.txt`
    const uploaded = await supabase.storage
      .from('documents')
      .upload(path, new Blob(['Minutes of the meeting']), { contentType: 'text/plain' })
    expect(uploaded.error).toBeNull()
    const [minutes] = await addDocuments(workspace.id, [
      { title: 'minutes.txt', storage_path: path, mime_type: 'text/plain', size_bytes: 22 },
    ])
    const { user } = renderApp(`/w/${workspace.id}/library`)

    await user.click(
      within(await rowOf('minutes.txt')).getByRole('button', { name: 'Actions for minutes.txt' }),
    )
    await user.click(await screen.findByRole('menuitem', { name: 'Rename' }))
    const dialog = await screen.findByRole('dialog', { name: 'Rename document' })
    const input = within(dialog).getByLabelText('Title')
    await user.clear(input)
    await user.click(within(dialog).getByRole('button', { name: 'Save' }))
    expect(await within(dialog).findByText('Give the document a title.')).toBeInTheDocument()
    await user.type(input, 'Board minutes, March')
    await user.click(within(dialog).getByRole('button', { name: 'Save' }))
    await rowOf('Board minutes, March')
    const { data: renamed } = await supabase
      .from('documents')
      .select('title')
      .eq('id', minutes!.id)
      .single()
    expect(renamed?.title).toBe('Board minutes, March')

    await user.click(
      within(await rowOf('Board minutes, March')).getByRole('button', {
        name: 'Actions for Board minutes, March',
      }),
    )
    await user.click(await screen.findByRole('menuitem', { name: 'Delete' }))
    const confirm = await screen.findByRole('alertdialog')
    expect(confirm).toHaveTextContent('Delete “Board minutes, March”?')
    await user.click(within(confirm).getByRole('button', { name: 'Delete' }))
    expect(await screen.findByText('No documents yet')).toBeInTheDocument()
    const { data: left } = await supabase.from('documents').select('id').eq('id', minutes!.id)
    expect(left).toEqual([])
    const listed = await supabase.storage
      .from('documents')
      .list(path.split('/').slice(0, 2).join('/'))
    expect(listed.data).toEqual([])
  })

  describe('with this browser’s clock minutes off', () => {
    const realNow = Date.now.bind(Date)
    const skewClock = (minutes: number) =>
      vi.spyOn(Date, 'now').mockImplementation(() => realNow() + minutes * 60_000)
    afterEach(() => vi.restoreAllMocks())

    /** One import beating now and one silent for 90 s, by the database's clock. */
    async function twoImports() {
      const { workspace } = await ownWorkspace()
      const processing = { status: 'processing', stage: 'indexing', progress: 0.5 }
      await addDocuments(workspace.id, [
        // Its updated_at the database's now(), as a heartbeat writes it.
        { title: 'Live.txt', ...processing },
        {
          title: 'Stopped.txt',
          ...processing,
          updated_at: new Date(realNow() - 90_000).toISOString(),
        },
      ])
      return workspace.id
    }

    it('does not call a live import interrupted when the clock is fast', async () => {
      const workspaceId = await twoImports()
      skewClock(10)
      renderApp(`/w/${workspaceId}/library`)
      expect(await within(await rowOf('Stopped.txt')).findByText('Interrupted')).toBeInTheDocument()
      const live = await rowOf('Live.txt')
      expect(within(live).getByText(/Indexing/)).toBeInTheDocument()
      expect(within(live).queryByText('Interrupted')).toBeNull()
      expect(within(live).queryByRole('button', { name: 'Resume Live.txt' })).toBeNull()
    })

    it('calls a stopped import interrupted when the clock is slow', async () => {
      const workspaceId = await twoImports()
      skewClock(-10)
      renderApp(`/w/${workspaceId}/library`)
      const stopped = await rowOf('Stopped.txt')
      expect(await within(stopped).findByText('Interrupted')).toBeInTheDocument()
      expect(
        within(stopped).getByRole('button', { name: 'Resume Stopped.txt' }),
      ).toBeInTheDocument()
      expect(within(await rowOf('Live.txt')).queryByText('Interrupted')).toBeNull()
    })
  })

  it('asks for the file again to resume an upload a reload cut, and takes only that file', async () => {
    const { workspace } = await ownWorkspace()
    await addDocuments(workspace.id, [
      {
        title: 'Swans',
        file_name: 'swans.txt',
        size_bytes: 5,
        status: 'processing',
        stage: 'uploading',
        created_at: '2026-01-01T00:00:00Z',
        updated_at: '2026-01-01T00:01:00Z',
      },
    ])
    const { user } = renderApp(`/w/${workspace.id}/library`)
    const row = await rowOf('Swans')
    expect(await within(row).findByText('Interrupted')).toBeInTheDocument()
    await user.click(within(row).getByRole('button', { name: 'Resume Swans' }))
    expect(
      await screen.findByText('Choose “swans.txt” again: its upload continues where it stopped.'),
    ).toBeInTheDocument()
    const chooser = screen.getByLabelText('Choose swans.txt to resume its upload')
    await user.upload(chooser, new File(['ducks'], 'ducks.txt', { type: 'text/plain' }))
    expect(
      await screen.findByText('That is not “swans.txt”: choose that file to resume its upload.'),
    ).toBeInTheDocument()
    expect(screen.queryByRole('region', { name: 'Uploads' })).toBeNull()
    await user.upload(chooser, new File(['swans'], 'swans.txt', { type: 'text/plain' }))
    const uploads = await screen.findByRole('region', { name: 'Uploads' })
    expect(within(uploads).getByRole('listitem', { name: 'swans.txt' })).toBeInTheDocument()
  })

  it('offers upload and retry to editors, and refuses too large or unsupported files at once', async () => {
    const { workspace } = await ownWorkspace()
    await addDocuments(workspace.id, [
      {
        title: 'Stalled.pdf',
        status: 'processing',
        stage: 'extracting',
        created_at: '2026-01-01T00:00:00Z',
        updated_at: '2026-01-01T00:01:00Z',
      },
    ])
    const { user } = renderApp(`/w/${workspace.id}/library`)
    const stalled = await rowOf('Stalled.pdf')
    expect(await within(stalled).findByText('Interrupted')).toBeInTheDocument()
    expect(within(stalled).getByRole('button', { name: 'Resume Stalled.pdf' })).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Upload' })).toBeInTheDocument()

    // Refused on the page, before the file is even read.
    const huge = new File(['x'], 'Atlas scans.pdf', { type: 'application/pdf' })
    Object.defineProperty(huge, 'size', { value: 101 * 2 ** 20 })
    const picture = new File(['\x89PNG'], 'Floor plan.png', { type: 'image/png' })
    await user.upload(screen.getByLabelText('Upload files'), [huge, picture])
    const uploads = await screen.findByRole('region', { name: 'Uploads' })
    const item = within(uploads).getByRole('listitem', { name: 'Atlas scans.pdf' })
    expect(within(item).getByRole('alert')).toHaveTextContent(
      'Not added: "Atlas scans.pdf" is larger than 100 MB.',
    )
    // Never "Waiting…": the reason shows as soon as it is dropped, and nothing is running.
    const png = within(uploads).getByRole('listitem', { name: 'Floor plan.png' })
    expect(within(png).getByRole('alert')).toHaveTextContent(
      'Not added: "Floor plan.png": .png files are not supported.',
    )
    expect(within(uploads).queryByText('Waiting…')).not.toBeInTheDocument()
    expect(within(uploads).getByRole('heading')).toHaveTextContent('Uploads')
    await user.click(within(uploads).getByRole('button', { name: 'Clear finished' }))
    expect(screen.queryByRole('region', { name: 'Uploads' })).not.toBeInTheDocument()

    // Resumed, and said so: not a retry of a failed upload.
    await user.click(within(stalled).getByRole('button', { name: 'Resume Stalled.pdf' }))
    const resumed = await screen.findByRole('region', { name: /Upload/ })
    expect(within(resumed).getByRole('listitem', { name: 'Stalled.pdf' })).toHaveTextContent(
      /^Resume: Stalled\.pdf/,
    )
  })

  it('shows a viewer the documents without upload or actions', async () => {
    const { workspace } = await ownWorkspace()
    await addDocuments(workspace.id, [{ title: 'Handbook.md', mime_type: 'text/markdown' }])
    const email = uniqueEmail('viewer')
    const token = await inviteByEmail(workspace.id, email)
    await signOutLocally()
    await signUpAs('viewer', email)
    const accepted = await supabase.rpc('accept_invitation', { invitation_token: token })
    expect(accepted.error).toBeNull()

    renderApp(`/w/${workspace.id}/library`)
    const row = await rowOf('Handbook.md')
    expect(within(row).getByText('Markdown')).toBeInTheDocument()
    expect(within(row).getByText('Ada Owner')).toBeInTheDocument()
    expect(screen.queryByRole('button', { name: /Actions for/ })).not.toBeInTheDocument()
    expect(screen.queryByRole('button', { name: /Upload/ })).not.toBeInTheDocument()
    expect(screen.queryByLabelText('Upload files')).not.toBeInTheDocument()
  })
})
