import { screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { supabase } from '@/lib/supabase'
import { ask } from '@/testing/ask-chat'
import { renderApp } from '@/testing/render-app'
import { signUpAs } from '@/testing/users'

const passage =
  'Mosses are kept loose in [paper packets](https://example.com/packets_(moss)) at the herbarium.'

/** A workspace with one ready document of one passage, and a conversation in it. */
async function conversationBeside(content: string) {
  await signUpAs('Olivia')
  const { data: workspace, error } = await supabase
    .from('workspaces')
    .insert({ name: 'Field notes' })
    .select()
    .single()
  if (error) throw error
  const { data: document, error: docError } = await supabase
    .from('documents')
    .insert({ workspace_id: workspace.id, title: 'Herbarium', status: 'ready', stage: 'ready' })
    .select('id')
    .single()
  if (docError) throw docError
  const { error: chunkError } = await supabase.from('chunks').insert({
    document_id: document.id,
    workspace_id: workspace.id,
    ordinal: 0,
    content,
    char_start: 0,
    char_end: content.length,
  })
  if (chunkError) throw chunkError
  const { data: conversation, error: conversationError } = await supabase
    .from('conversations')
    .insert({ workspace_id: workspace.id, title: 'Mosses' })
    .select()
    .single()
  if (conversationError) throw conversationError
  return { workspace, conversation }
}

describe('chat quotes', () => {
  it('shows a quoted link as its text in the sources', async () => {
    const { workspace, conversation } = await conversationBeside(passage)
    await ask(conversation.id, 'How are mosses kept?')
    // The stored quote is the passage's own text, link syntax and all…
    const { data: messages } = await supabase
      .from('messages')
      .select('citations')
      .eq('role', 'assistant')
    expect(JSON.stringify(messages)).toContain('](https://example.com')

    // …and the reader sees the link's text.
    const { user } = renderApp(`/w/${workspace.id}/chat/${conversation.id}`)
    const answer = await screen.findByRole('article', { name: 'Answer' })
    await user.click(within(answer).getByText(/^Sources/))
    const sources = within(answer).getByRole('list', { name: 'Sources' })
    expect(sources).toHaveTextContent('Mosses are kept loose in paper packets at the herbarium.')
    expect(sources.textContent).not.toContain('](')
  })
})
