// Documents as MCP resources, `sourcebook://documents/<id>`: a client lists them and reads a
// document's text into its context (bounded), as the token's person (RLS).
import { ResourceTemplate } from './deps.ts'
import { ToolProblem, type Session } from './session.ts'

/** Enough of a document for a model's context; past it, read_passage reads by page. */
const MAX_CHARS = 100_000

export const documentTemplate = (session: Session): ResourceTemplate =>
  new ResourceTemplate('sourcebook://documents/{document_id}', {
    list: async () => {
      const { data, error } = await session.db
        .from('documents')
        .select('id, title, mime_type, size_bytes')
        .eq('workspace_id', session.grant.workspaceId)
        .eq('status', 'ready')
        .order('created_at', { ascending: false })
        .limit(200)
        .returns<
          { id: string; title: string; mime_type: string | null; size_bytes: number | null }[]
        >()
      if (error) throw new ToolProblem(`Could not list the documents: ${error.message}`)
      return {
        resources: data.map((doc) => ({
          uri: `sourcebook://documents/${doc.id}`,
          name: doc.title,
          mimeType: 'text/markdown',
          ...(doc.size_bytes === null ? {} : { size: doc.size_bytes }),
        })),
      }
    },
  })

/** A document's extracted text (or, for one written without it, its passages in order). */
export async function readDocument(session: Session, uri: URL, documentId: string) {
  const found = await session.db
    .from('documents')
    .select('id, title')
    .eq('workspace_id', session.grant.workspaceId)
    .eq('id', documentId)
    .maybeSingle<{ id: string; title: string }>()
  if (found.error || !found.data) throw new ToolProblem('No such document in this workspace')
  const stored = await session.db
    .from('document_texts')
    .select('text')
    .eq('document_id', documentId)
    .maybeSingle<{ text: string }>()
  let text = stored.data?.text
  if (!text) {
    const chunks = await session.db
      .from('chunks')
      .select('content')
      .eq('document_id', documentId)
      .order('ordinal')
      .limit(500)
      .returns<{ content: string }[]>()
    text = (chunks.data ?? []).map((c) => c.content).join('\n\n')
  }
  const bounded =
    text.length > MAX_CHARS
      ? `${text.slice(0, MAX_CHARS)}\n\n[… the rest is cut here: use read_passage with a page]`
      : text
  return {
    contents: [
      { uri: uri.href, mimeType: 'text/markdown', text: `# ${found.data.title}\n\n${bounded}` },
    ],
  }
}
