// ask: an answer with numbered citations from the chat function, in a new private conversation
// of the token's person (it shows in their chat list, so the answer can be read on later),
// scoped to the documents given, so the answer can cite nothing else.
import { z } from 'npm:zod@4.6.7'
import type { CallToolResult } from './deps.ts'
import { checkDocumentIds, documentIdsInput } from './document-ids.ts'
import { conversationLink, documentLink, pages } from './links.ts'
import { callFunction, problemOf, ToolProblem, type Session } from './session.ts'

export const askInput = {
  question: z
    .string()
    .trim()
    .min(1, 'the question must not be empty')
    .max(4000, 'the question must be at most 4000 characters')
    .describe('A question about the workspace’s documents, in full sentences'),
  document_ids: documentIdsInput('Answer only from these documents'),
}

type Citation = {
  n: number
  chunk_id: string
  document_id: string
  title: string
  page_start: number | null
  page_end: number | null
  quote: string
}
type Done = { message: { content: string; citations: Citation[] } }

/** The `done` or `error` event of the chat function's stream. */
async function lastEvent(res: Response): Promise<{ event: string; data: unknown }> {
  const text = await res.text()
  let last = { event: 'error', data: { message: 'The answer ended without finishing' } as unknown }
  for (const frame of text.split('\n\n')) {
    const event = /^event: (.*)$/m.exec(frame)?.[1]
    const data = /^data: (.*)$/m.exec(frame)?.[1]
    if ((event === 'done' || event === 'error') && data) last = { event, data: JSON.parse(data) }
  }
  return last
}

export async function ask(
  session: Session,
  args: { question: string; document_ids?: string[] },
): Promise<CallToolResult> {
  const { workspaceId } = session.grant
  await checkDocumentIds(session, args.document_ids)
  const created = await session.db
    .from('conversations')
    .insert({
      workspace_id: workspaceId,
      title: args.question.slice(0, 200),
      visibility: 'private',
      // The conversation's scope: chat retrieves from these documents only.
      document_ids: args.document_ids ?? null,
    })
    .select('id')
    .single<{ id: string }>()
  if (created.error) {
    throw new ToolProblem(`Could not start a conversation: ${created.error.message}`)
  }
  const res = await callFunction(session, 'chat', {
    conversation_id: created.data.id,
    content: args.question,
  })
  if (!res.ok) {
    // Refused before anything was asked (the chat rate limit, say): no empty conversation stays.
    await session.db.from('conversations').delete().eq('id', created.data.id)
    throw await problemOf(res, 'The answer failed')
  }
  const last = await lastEvent(res)
  if (last.event === 'error') {
    throw new ToolProblem((last.data as { message?: string }).message ?? 'The answer failed')
  }
  const { message } = last.data as Done
  const citations = message.citations.map((c) => ({
    n: c.n,
    title: c.title,
    pages: pages(c.page_start, c.page_end) || null,
    quote: c.quote,
    document_id: c.document_id,
    chunk_id: c.chunk_id,
    link: documentLink(workspaceId, c.document_id, c.chunk_id),
  }))
  const conversation = conversationLink(workspaceId, created.data.id)
  const sources = citations.map(
    (c) => `[${c.n}] ${c.title}${c.pages ? `, ${c.pages}` : ''}: “${c.quote}”\n    ${c.link}`,
  )
  const lines = [message.content]
  if (sources.length) lines.push('', 'Sources:', ...sources)
  lines.push('', `Conversation: ${conversation}`)
  return {
    content: [{ type: 'text', text: lines.join('\n') }],
    structuredContent: { answer: message.content, citations, conversation_link: conversation },
  }
}
