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
 * documents row through her own client), and a viewer in the same workspace watching.
 */
async function scanUnderway() {
  const owner = await signUpAs('Olga Owner', uniqueEmail('owner'))
  const { data: workspace, error } = await supabase
    .from('workspaces')
    .insert({ name: 'Scans' })
    .select()
    .single()
  if (error) throw error
  const { data: doc, error: insertError } = await supabase
    .from('documents')
    .insert({
      workspace_id: workspace.id,
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

  it('the document page shows a teammate the same words while the scan is read', async () => {
    const { workspaceId, documentId, progress } = await scanUnderway()
    renderApp(`/w/${workspaceId}/documents/${documentId}`)
    expect(await screen.findByText('Extracting text… 10%')).toBeInTheDocument()
    await channelsJoined()
    await progress.ocrPage(3, 4)
    expect(await screen.findByText('Recognising page 3 of 4… 30%')).toBeInTheDocument()
  })
})
