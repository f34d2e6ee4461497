// The document_ids a tool is given: each must be a document of the token's workspace that its
// person can see. Otherwise the tool says which ids are not, rather than answer from less (or,
// for ask, from nothing) without a word.
import { z } from 'npm:zod@4.6.7'
import { ToolProblem, type Session } from './session.ts'

export const documentIdsInput = (purpose: string) =>
  z
    .array(z.uuid('document_ids must be document ids (UUIDs)'))
    .min(1, 'document_ids must name at least one document (leave it out for all of them)')
    .max(100, 'document_ids may name at most 100 documents')
    .optional()
    .describe(`${purpose} (ids from list_documents or search)`)

/** Refuses ids that are not documents of the workspace, naming them. */
export async function checkDocumentIds(session: Session, ids: string[] | undefined) {
  if (!ids) return
  const { data, error } = await session.db
    .from('documents')
    .select('id')
    .eq('workspace_id', session.grant.workspaceId)
    .in('id', ids)
    .returns<{ id: string }[]>()
  if (error) throw new ToolProblem(`Could not read the documents: ${error.message}`)
  const found = new Set(data.map((row) => row.id))
  const unknown = [...new Set(ids.filter((id) => !found.has(id)))]
  if (unknown.length) {
    throw new ToolProblem(
      `No such document in this workspace: ${unknown.join(', ')}. ` +
        'Use list_documents to find the ids.',
    )
  }
}
