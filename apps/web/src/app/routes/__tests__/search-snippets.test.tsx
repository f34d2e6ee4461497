import { screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { supabase } from '@/lib/supabase'
import { renderApp } from '@/testing/render-app'
import { signUpAs } from '@/testing/users'

/** A workspace with one indexed passage of the given text. */
async function workspaceWith(title: string, content: string) {
  await signUpAs('owner')
  const { data: workspace, error } = await supabase
    .from('workspaces')
    .insert({ name: 'Vendors' })
    .select()
    .single()
  if (error) throw error
  const { data: document, error: docError } = await supabase
    .from('documents')
    .insert({ workspace_id: workspace.id, title, status: 'ready', stage: 'ready' })
    .select('id')
    .single()
  if (docError) throw docError
  const { error: chunkError } = await supabase
    .from('chunks')
    .insert({ document_id: document.id, workspace_id: workspace.id, ordinal: 0, content })
  if (chunkError) throw chunkError
  return workspace
}

async function snippetFor(workspaceId: string, query: string) {
  const { user } = renderApp(`/w/${workspaceId}/search`)
  await user.type(await screen.findByRole('combobox', { name: 'Search documents' }), query)
  const results = await screen.findByRole('listbox', { name: 'Search results' })
  const [first] = await within(results).findAllByRole('option')
  return first!.querySelector('p')!
}

describe('search snippets', () => {
  it('keeps CSV records on lines of their own', async () => {
    const workspace = await workspaceWith(
      'vendors.csv',
      'vendor: Acme; owner: Ada Lovelace\n\nvendor: Beta; owner: Bob Stone\n\nvendor: Core; owner: Cy',
    )
    const snippet = await snippetFor(workspace.id, 'owner')
    expect(snippet.textContent).toBe(
      'vendor: Acme; owner: Ada Lovelace\nvendor: Beta; owner: Bob Stone\nvendor: Core; owner: Cy',
    )
    expect(snippet).toHaveClass('whitespace-pre-line')
  })

  it('shows a link as its text, never as Markdown syntax', async () => {
    const workspace = await workspaceWith(
      'field-guide.html',
      'Read the [duck identification guide](https://example.com/ducks_(field)) before the survey.',
    )
    const snippet = await snippetFor(workspace.id, 'identification')
    expect(snippet.textContent).toBe('Read the duck identification guide before the survey.')
    expect(within(snippet).getByText('identification').tagName).toBe('MARK')
  })
})
