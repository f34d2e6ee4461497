import { ProgressReporter } from '@sourcebook/core/ingest/progress'
import { createClient } from '@supabase/supabase-js'
import { screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { env } from '@/config/env'
import { supabase } from '@/lib/supabase'
import { renderApp } from '@/testing/render-app'
import { inviteByEmail, PASSWORD, signOutLocally, signUpAs, uniqueEmail } from '@/testing/users'

/**
 * An owner's scan being read by OCR in her own tab (her importer's ProgressReporter writing the
 * documents row through her own client), and a viewer in the same workspace watching. With
 * `replacing`, the scan is a new version of a ready document of that title.
 */
async function scanUnderway(replacing?: string) {
  const owner = await signUpAs('Olga Owner', uniqueEmail('owner'))
  const { data: workspace, error } = await supabase
    .from('workspaces')
    .insert({ name: 'Scans' })
    .select()
    .single()
  if (error) throw error
  const current = replacing
    ? await supabase
        .from('documents')
        .insert({ workspace_id: workspace.id, title: replacing, status: 'ready', stage: 'ready' })
        .select('id')
        .single()
    : null
  if (current?.error) throw current.error
  const { data: doc, error: insertError } = await supabase
    .from('documents')
    .insert({
      workspace_id: workspace.id,
      replaces_id: current?.data.id ?? null,
      title: 'Board minutes 1998',
      file_name: 'minutes-1998.pdf',
      mime_type: 'application/pdf',
      status: 'processing',
      stage: 'extracting',
      progress: 0.1,
    })
    .select('id')
    .single()
  if (insertError) throw insertError
  const viewerEmail = uniqueEmail('viewer')
  const token = await inviteByEmail(workspace.id, viewerEmail)
  const uploader = createClient(env.SUPABASE_URL, env.SUPABASE_PUBLISHABLE_KEY, {
    auth: { persistSession: false, autoRefreshToken: false, storageKey: 'uploader-tab' },
  })
  const signedIn = await uploader.auth.signInWithPassword({
    email: owner.email,
    password: PASSWORD,
  })
  if (signedIn.error) throw signedIn.error
  await signOutLocally()
  await signUpAs('Vic Viewer', viewerEmail)
  const accepted = await supabase.rpc('accept_invitation', { invitation_token: token })
  if (accepted.error) throw accepted.error
  const progress = new ProgressReporter(uploader, doc.id, { stage: 'extracting' })
  return { workspaceId: workspace.id, documentId: doc.id, progress }
}

const channelsJoined = () =>
  waitFor(() => expect(supabase.getChannels().every((c) => c.state === 'joined')).toBe(true))

describe('OCR progress seen by teammates', () => {
  it('the library shows a teammate the page OCR is on, live, then the next stage', async () => {
    const { workspaceId, progress } = await scanUnderway()
    renderApp(`/w/${workspaceId}/library`)
    const table = await screen.findByRole('table', { name: 'Documents' })
    const row = within(table)
      .getByRole('link', { name: 'Board minutes 1998' })
      .closest<HTMLElement>('[role="row"]')!
    expect(within(row).getByText('Extracting text… 10%')).toBeInTheDocument()
    await channelsJoined()

    await progress.ocrPage(2, 5)
    expect(await within(row).findByText('Recognising page 2 of 5… 18%')).toBeInTheDocument()
    expect(
      within(row).getByRole('progressbar', { name: 'Recognising page 2 of 5' }),
    ).toHaveAttribute('aria-valuenow', '18')
    await progress.ocrPage(5, 5)
    expect(await within(row).findByText('Recognising page 5 of 5… 42%')).toBeInTheDocument()

    // OCR is done: the wording goes with the page numbers.
    await progress.report('chunking')
    expect(await within(row).findByText('Chunking… 50%')).toBeInTheDocument()
    expect(within(row).queryByText(/Recognising/)).not.toBeInTheDocument()
  })

  it('the document page shows a teammate the same words, in its badge and body, while the scan is read', async () => {
    const { workspaceId, documentId, progress } = await scanUnderway()
    renderApp(`/w/${workspaceId}/documents/${documentId}`)
    const details = await screen.findByRole('region', { name: 'Document details' })
    expect(await screen.findByText('Extracting text… 10%')).toBeInTheDocument()
    expect(within(details).getByText('Extracting text')).toBeInTheDocument()
    await channelsJoined()
    await progress.ocrPage(3, 4)
    expect(await screen.findByText('Recognising page 3 of 4… 30%')).toBeInTheDocument()
    expect(within(details).getByText('Recognising page 3 of 4')).toBeInTheDocument()
    expect(within(details).queryByText('Extracting text')).not.toBeInTheDocument()
    expect(screen.getByRole('progressbar', { name: 'Recognising page 3 of 4' })).toBeInTheDocument()
  })

  it('the library shows a new version’s OCR page in full on the document it replaces', async () => {
    const { workspaceId, progress } = await scanUnderway('Board minutes')
    renderApp(`/w/${workspaceId}/library`)
    const table = await screen.findByRole('table', { name: 'Documents' })
    await within(table).findByRole('link', { name: 'Board minutes' })
    const row = () =>
      within(table)
        .getByRole('link', { name: 'Board minutes' })
        .closest<HTMLElement>('[role="row"]')!
    await channelsJoined()
    await progress.ocrPage(12, 30)
    const status = await within(row()).findByText('New version: Recognising page 12 of 30… 25%')
    // Wrapped, never cut short by an ellipsis, in a row tall enough for its lines.
    expect(status).not.toHaveClass('truncate')
    expect(status).toHaveClass('line-clamp-3')
    expect(row().style.height).toBe('120px')
    await progress.report('chunking')
    await within(row()).findByText('New version: Chunking… 50%')
    expect(row().style.height).toBe('88px')
  })
})
