import { screen, waitFor } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { supabase } from '@/lib/supabase'
import { renderApp } from '@/testing/render-app'
import { inviteByEmail, signOutLocally, signUpAs, uniqueEmail } from '@/testing/users'

// The AI models card on Settings, against the test localbase, whose functions have a fake
// OpenAI behind them (src/testing/start-localbase.ts).

/** A workspace the signed-in owner made, with one ready document of `n` chunks. */
async function workspaceWithChunks(n: number) {
  await signUpAs('owner')
  const { data: workspace, error } = await supabase
    .from('workspaces')
    .insert({ name: 'Field notes' })
    .select()
    .single()
  if (error) throw error
  const { data: document, error: docError } = await supabase
    .from('documents')
    .insert({ workspace_id: workspace.id, title: 'Notes', status: 'ready', stage: 'ready' })
    .select('id')
    .single()
  if (docError) throw docError
  const rows = Array.from({ length: n }, (_, ordinal) => ({
    document_id: document.id,
    workspace_id: workspace.id,
    ordinal,
    content: `Specimen ${ordinal} was pressed and labelled.`,
  }))
  const { error: chunkError } = await supabase.from('chunks').insert(rows)
  if (chunkError) throw chunkError
  return workspace
}

const models = async (id: string) =>
  (
    await supabase
      .from('workspaces')
      .select('chat_model, embedding_model, pending_embedding_model, reranking')
      .eq('id', id)
      .single()
  ).data

const embeddedChunks = async (id: string) =>
  (
    await supabase
      .from('chunks')
      .select('id', { count: 'exact', head: true })
      .eq('workspace_id', id)
      .not('embedding', 'is', null)
  ).count

/** Holds the workspace updates (the model and reranking saves) until `release` is called. */
function holdWorkspaceUpdates() {
  const fetch = globalThis.fetch
  let release = () => {}
  const released = new Promise<void>((done) => (release = done))
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const request = new Request(input, init)
    if (request.method === 'PATCH' && request.url.includes('/rest/v1/workspaces?')) await released
    return fetch(input, init)
  })
  return release
}

afterEach(() => vi.restoreAllMocks())

describe('AI models settings', () => {
  it('lets the owner pick a chat model and an embedding model, then switch models', async () => {
    const workspace = await workspaceWithChunks(3)
    const { user } = renderApp(`/w/${workspace.id}/settings`)

    const chat = await screen.findByRole('combobox', { name: 'Chat model' })
    expect(chat).toHaveTextContent('None — answers are extracted from the documents')
    await user.click(chat)
    await user.click(await screen.findByRole('option', { name: 'GPT-4.1 mini' }))
    await waitFor(async () =>
      expect(await models(workspace.id)).toMatchObject({ chat_model: 'openai:gpt-4.1-mini' }),
    )

    // The first embedding model becomes active at once; the page embeds every chunk.
    const embedding = screen.getByRole('combobox', { name: 'Embedding model' })
    // Both choices wait while a change is being saved.
    await waitFor(() => expect(embedding).toBeEnabled())
    await user.click(embedding)
    await user.click(await screen.findByRole('option', { name: 'OpenAI text-embedding-3-small' }))
    await waitFor(async () => expect(await embeddedChunks(workspace.id)).toBe(3))
    expect(await models(workspace.id)).toMatchObject({
      embedding_model: 'openai:text-embedding-3-small',
      pending_embedding_model: null,
    })
    await waitFor(() => expect(screen.queryByRole('progressbar')).not.toBeInTheDocument())

    // Another model is built beside it, then swapped in.
    await waitFor(() => expect(embedding).toBeEnabled())
    await user.click(embedding)
    await user.click(await screen.findByRole('option', { name: 'OpenAI text-embedding-3-large' }))
    await waitFor(async () =>
      expect(await models(workspace.id)).toMatchObject({
        embedding_model: 'openai:text-embedding-3-large',
        pending_embedding_model: null,
      }),
    )
    expect(await embeddedChunks(workspace.id)).toBe(3)
    await waitFor(() => expect(embedding).toHaveTextContent('OpenAI text-embedding-3-large'))
  })

  it('lets the owner choose how results are reranked, the judge once there is a chat model', async () => {
    const workspace = await workspaceWithChunks(1)
    const { user } = renderApp(`/w/${workspace.id}/settings`)

    const reranking = await screen.findByRole('combobox', { name: 'Reranking' })
    expect(reranking).toHaveTextContent('Off — the search order')
    expect(reranking).toHaveAccessibleDescription(/Reorders the best 40 passages/)
    // No chat model yet: the judge cannot be chosen; the server's rerank model can.
    await user.click(reranking)
    expect(
      await screen.findByRole('option', { name: 'Chat model as judge (choose a chat model)' }),
    ).toHaveAttribute('aria-disabled', 'true')
    await user.click(
      screen.getByRole('option', { name: 'Rerank model: fake-rerank (OpenAI-compatible)' }),
    )
    await waitFor(async () =>
      expect(await models(workspace.id)).toMatchObject({ reranking: 'model' }),
    )
    expect(await screen.findByText('Reranking saved')).toBeInTheDocument()

    const chat = screen.getByRole('combobox', { name: 'Chat model' })
    await user.click(chat)
    await user.click(await screen.findByRole('option', { name: 'GPT-4.1 mini' }))
    await waitFor(() => expect(reranking).toBeEnabled())
    await waitFor(async () =>
      expect(await models(workspace.id)).toMatchObject({ chat_model: 'openai:gpt-4.1-mini' }),
    )
    await user.click(reranking)
    await user.click(await screen.findByRole('option', { name: 'Chat model as judge' }))
    await waitFor(async () =>
      expect(await models(workspace.id)).toMatchObject({ reranking: 'judge' }),
    )
    await waitFor(() => expect(reranking).toHaveTextContent('Chat model as judge'))

    // Without a chat model the judge cannot run: the page says so, and keeps the choice.
    await waitFor(() => expect(chat).toBeEnabled())
    await user.click(chat)
    await user.click(
      await screen.findByRole('option', {
        name: 'None — answers are extracted from the documents',
      }),
    )
    await waitFor(() =>
      expect(reranking).toHaveAccessibleDescription(
        /Nothing is reranked until that model is available\./,
      ),
    )
    expect(await models(workspace.id)).toMatchObject({ chat_model: null, reranking: 'judge' })
  })

  it('shows a choice at once while it saves, and keeps the focus on its select', async () => {
    const workspace = await workspaceWithChunks(1)
    const { user } = renderApp(`/w/${workspace.id}/settings`)
    const reranking = await screen.findByRole('combobox', { name: 'Reranking' })
    const release = holdWorkspaceUpdates()

    await user.click(reranking)
    await user.click(
      await screen.findByRole('option', { name: 'Rerank model: fake-rerank (OpenAI-compatible)' }),
    )
    // Disabling the select while it saves would drop a keyboard user's focus onto the page.
    await waitFor(() => expect(reranking).toHaveFocus())
    expect(reranking).toHaveTextContent('Rerank model: fake-rerank (OpenAI-compatible)')
    expect(reranking).toBeEnabled()
    expect(await models(workspace.id)).toMatchObject({ reranking: 'off' })

    release()
    expect(await screen.findByText('Reranking saved')).toBeInTheDocument()
    expect(await models(workspace.id)).toMatchObject({ reranking: 'model' })
    expect(reranking).toHaveTextContent('Rerank model: fake-rerank (OpenAI-compatible)')
  })

  it('shows where a re-embedding stands, and resumes it when the owner comes back', async () => {
    const workspace = await workspaceWithChunks(2)
    // Chosen elsewhere: an active model whose vectors are not made yet.
    await supabase
      .from('workspaces')
      .update({ embedding_model: 'openai:text-embedding-3-small' })
      .eq('id', workspace.id)
    renderApp(`/w/${workspace.id}/settings`)
    expect(await screen.findByText(/Embedding \d of 2 chunks/)).toBeInTheDocument()
    await waitFor(async () => expect(await embeddedChunks(workspace.id)).toBe(2))
    await waitFor(() => expect(screen.queryByText(/of 2 chunks/)).not.toBeInTheDocument())
  })

  it('shows other members the models, read only', async () => {
    const workspace = await workspaceWithChunks(1)
    await supabase
      .from('workspaces')
      .update({ chat_model: 'openai:gpt-4.1-mini' })
      .eq('id', workspace.id)
    const email = uniqueEmail('viewer')
    const token = await inviteByEmail(workspace.id, email)
    await signOutLocally()
    await signUpAs('viewer', email)
    const { error } = await supabase.rpc('accept_invitation', {
      invitation_token: token,
    })
    expect(error).toBeNull()

    renderApp(`/w/${workspace.id}/settings`)
    expect(await screen.findByText('Only an owner can change the models.')).toBeInTheDocument()
    const chat = await screen.findByRole('combobox', { name: 'Chat model' })
    expect(chat).toHaveTextContent('GPT-4.1 mini')
    expect(chat).toBeDisabled()
    expect(screen.getByRole('combobox', { name: 'Embedding model' })).toBeDisabled()
    const reranking = screen.getByRole('combobox', { name: 'Reranking' })
    expect(reranking).toHaveTextContent('Off — the search order')
    expect(reranking).toBeDisabled()
    // The database refuses a viewer's change, whatever the page shows.
    const { data } = await supabase
      .from('workspaces')
      .update({ reranking: 'judge' })
      .eq('id', workspace.id)
      .select('id')
    expect(data).toEqual([])
  })
})
