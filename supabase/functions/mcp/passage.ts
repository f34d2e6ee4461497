// read_passage: the text around a passage (or at a page), bounded, as the member can read it.
import { z } from 'npm:zod@4.6.7'
import type { CallToolResult } from './deps.ts'
import { documentLink, pages } from './links.ts'
import { ToolProblem, type Session } from './session.ts'

/** Enough for a model to read around a citation, not a whole book per call. */
const MAX_CHARS = 8000

export const passageInput = {
  document_id: z.uuid('document_id must be a document id (a UUID)').describe('The document’s id'),
  page: z
    .int()
    .min(1, 'pages start at 1')
    .optional()
    .describe('Read at this page (for paged documents)'),
  chunk_id: z
    .uuid('chunk_id must be a passage id (a UUID)')
    .optional()
    .describe('Read this passage (a chunk_id from search or ask) with its neighbours'),
}

type Chunk = {
  id: string
  ordinal: number
  content: string
  heading_path: string[]
  page_start: number | null
  page_end: number | null
}

const chunkColumns = 'id, ordinal, content, heading_path, page_start, page_end'

async function around(
  session: Session,
  args: { document_id: string; page?: number; chunk_id?: string },
) {
  const chunks = () =>
    session.db.from('chunks').select(chunkColumns).eq('document_id', args.document_id)
  if (args.chunk_id) {
    const at = await chunks().eq('id', args.chunk_id).maybeSingle<Chunk>()
    if (at.error) throw new ToolProblem(`Could not read the passage: ${at.error.message}`)
    if (!at.data) throw new ToolProblem('No such passage in this document')
    return chunks()
      .gte('ordinal', at.data.ordinal - 1)
      .lte('ordinal', at.data.ordinal + 1)
      .order('ordinal')
      .returns<Chunk[]>()
  }
  if (args.page) {
    return chunks()
      .lte('page_start', args.page)
      .or(`page_end.gte.${args.page},page_start.eq.${args.page}`)
      .order('ordinal')
      .limit(6)
      .returns<Chunk[]>()
  }
  return chunks().order('ordinal').limit(3).returns<Chunk[]>()
}

export async function readPassage(
  session: Session,
  args: { document_id: string; page?: number; chunk_id?: string },
): Promise<CallToolResult> {
  const { workspaceId } = session.grant
  const doc = await session.db
    .from('documents')
    .select('id, title')
    .eq('workspace_id', workspaceId)
    .eq('id', args.document_id)
    .maybeSingle<{ id: string; title: string }>()
  if (doc.error) throw new ToolProblem(`Could not read the document: ${doc.error.message}`)
  if (!doc.data) throw new ToolProblem('No such document in this workspace')
  const { data, error } = await around(session, args)
  if (error) throw new ToolProblem(`Could not read the passage: ${error.message}`)
  if (!data.length) {
    throw new ToolProblem(
      args.page ? `Page ${args.page} has no text` : 'This document has no text yet',
    )
  }
  let budget = MAX_CHARS
  const passages = []
  for (const chunk of data) {
    if (budget <= 0) break
    const text = chunk.content.slice(0, budget)
    budget -= text.length
    passages.push({
      chunk_id: chunk.id,
      headings: chunk.heading_path,
      pages: pages(chunk.page_start, chunk.page_end) || null,
      text,
      truncated: text.length < chunk.content.length,
      link: documentLink(workspaceId, args.document_id, chunk.id),
    })
  }
  const text = [
    doc.data.title,
    ...passages.map(
      (p) =>
        `\n--- ${[p.headings.join(' › '), p.pages].filter(Boolean).join(', ') || 'passage'} (chunk_id ${p.chunk_id})\n${p.text}${p.truncated ? ' […]' : ''}`,
    ),
  ].join('\n')
  return {
    content: [{ type: 'text', text }],
    structuredContent: { document_id: args.document_id, title: doc.data.title, passages },
  }
}
