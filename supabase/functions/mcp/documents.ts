// list_documents and get_document: the workspace's documents as its member sees them (RLS).
import { z } from 'npm:zod@4.6.7'
import type { CallToolResult } from './deps.ts'
import { documentLink, pages } from './links.ts'
import { ToolProblem, type Session } from './session.ts'

const columns =
  'id, title, mime_type, size_bytes, status, page_count, chunk_count, periods, created_at, updated_at'

type Document = {
  id: string
  title: string
  mime_type: string | null
  size_bytes: number | null
  status: string
  page_count: number | null
  chunk_count: number
  periods: string[]
  created_at: string
  updated_at: string
}

export const listInput = {
  query: z.string().trim().max(200).optional().describe('Only documents whose title contains this'),
  limit: z.int().min(1).max(100).optional().describe('How many documents (default 25)'),
  cursor: z.string().max(20).optional().describe('nextCursor from the previous page'),
}

/** The cursor is the offset of the next page, as text: opaque to clients, as MCP asks. */
function offsetOf(cursor: string | undefined): number {
  if (cursor === undefined) return 0
  const offset = Number(cursor)
  if (!Number.isInteger(offset) || offset < 0) throw new ToolProblem('That cursor is not valid')
  return offset
}

const describe = (workspaceId: string, doc: Document) => ({
  ...doc,
  link: documentLink(workspaceId, doc.id),
})

export async function listDocuments(
  session: Session,
  args: { query?: string; limit?: number; cursor?: string },
): Promise<CallToolResult> {
  const { workspaceId } = session.grant
  const limit = args.limit ?? 25
  const offset = offsetOf(args.cursor)
  let request = session.db.from('documents').select(columns).eq('workspace_id', workspaceId)
  if (args.query) request = request.ilike('title', `%${args.query.replace(/[%_\\]/g, '\\$&')}%`)
  // One more than asked says whether another page follows.
  const { data, error } = await request
    .order('created_at', { ascending: false })
    .order('id')
    .range(offset, offset + limit)
    .returns<Document[]>()
  if (error) throw new ToolProblem(`Could not list the documents: ${error.message}`)
  const documents = data.slice(0, limit).map((doc) => describe(workspaceId, doc))
  const nextCursor = data.length > limit ? String(offset + limit) : undefined
  const text = documents.length
    ? documents
        .map(
          (d) =>
            `- ${d.title} (${d.status}${d.page_count ? `, ${d.page_count} pages` : ''}) id ${d.id}`,
        )
        .join('\n') + (nextCursor ? `\nMore: call again with cursor "${nextCursor}".` : '')
    : args.query
      ? `No document title contains “${args.query}”.`
      : 'This workspace has no documents yet.'
  return {
    content: [{ type: 'text', text }],
    structuredContent: nextCursor ? { documents, nextCursor } : { documents },
  }
}

export const getInput = {
  document_id: z
    .uuid('document_id must be a document id (a UUID)')
    .describe('The document’s id, from list_documents or search'),
}

type Heading = {
  id: string
  heading_path: string[]
  page_start: number | null
  page_end: number | null
}

/** Each run of passages under the same headings, once: the document's outline. */
function outlineOf(chunks: Heading[]) {
  const outline: { headings: string[]; pages: string | null; chunk_id: string }[] = []
  let previous = ''
  for (const chunk of chunks) {
    const key = chunk.heading_path.join(' › ')
    if (!key || key === previous) continue
    previous = key
    outline.push({
      headings: chunk.heading_path,
      pages: pages(chunk.page_start, chunk.page_end) || null,
      chunk_id: chunk.id,
    })
  }
  return outline.slice(0, 200)
}

export async function getDocument(
  session: Session,
  args: { document_id: string },
): Promise<CallToolResult> {
  const { workspaceId } = session.grant
  const found = await session.db
    .from('documents')
    .select(columns)
    .eq('workspace_id', workspaceId)
    .eq('id', args.document_id)
    .maybeSingle<Document>()
  if (found.error) throw new ToolProblem(`Could not read the document: ${found.error.message}`)
  if (!found.data) throw new ToolProblem('No such document in this workspace')
  const chunks = await session.db
    .from('chunks')
    .select('id, heading_path, page_start, page_end')
    .eq('document_id', args.document_id)
    .order('ordinal')
    .limit(5000)
    .returns<Heading[]>()
  if (chunks.error) throw new ToolProblem(`Could not read the outline: ${chunks.error.message}`)
  const outline = outlineOf(chunks.data)
  const doc = describe(workspaceId, found.data)
  const text = [
    `${doc.title} (${doc.status}, ${doc.mime_type ?? 'unknown type'}${doc.page_count ? `, ${doc.page_count} pages` : ''}, ${doc.chunk_count} passages)`,
    doc.link,
    outline.length ? 'Outline:' : 'No headings.',
    ...outline.map(
      (o) =>
        `${'  '.repeat(o.headings.length - 1)}- ${o.headings.at(-1)}${o.pages ? ` (${o.pages})` : ''}`,
    ),
  ].join('\n')
  return { content: [{ type: 'text', text }], structuredContent: { document: doc, outline } }
}
