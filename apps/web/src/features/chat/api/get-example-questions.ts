import { queryOptions, useQuery } from '@tanstack/react-query'
import { supabase } from '@/lib/supabase'
import { exampleQuestions } from '../utils/example-questions'
import { chatKeys } from './keys'

/** How many documents, and how many of their first passages, the questions are drawn from. */
const DOCUMENTS = 3
const PASSAGES = 200

/** A conversation's scope (both null: the whole workspace). */
export type ExampleScope = { document_ids: string[] | null; collection_ids: string[] | null }

const unscoped: ExampleScope = { document_ids: null, collection_ids: null }

/**
 * Questions to start from, made from the titles and headings of the newest ready documents
 * of the workspace, or of a conversation's scope (headings from their passages' heading
 * paths, in reading order).
 */
export async function getExampleQuestions(
  workspaceId: string,
  signal: AbortSignal,
  scope: ExampleScope = unscoped,
): Promise<string[]> {
  let query = supabase
    .from('documents')
    .select('id, title')
    .eq('workspace_id', workspaceId)
    .eq('status', 'ready')
  if (scope.document_ids !== null || scope.collection_ids !== null) {
    const ids = await supabase
      .rpc('scope_document_ids', {
        workspace_id: workspaceId,
        document_ids: scope.document_ids ?? [],
        collection_ids: scope.collection_ids ?? [],
      })
      .abortSignal(signal)
    if (ids.error) throw ids.error
    query = query.in('id', ids.data ?? [])
  }
  const documents = await query
    .order('updated_at', { ascending: false })
    .limit(DOCUMENTS)
    .abortSignal(signal)
  if (documents.error) throw documents.error
  if (documents.data.length === 0) return []
  const chunks = await supabase
    .from('chunks')
    .select('document_id, heading_path')
    .in(
      'document_id',
      documents.data.map((d) => d.id),
    )
    .order('ordinal')
    .limit(PASSAGES)
    .abortSignal(signal)
  if (chunks.error) throw chunks.error
  return exampleQuestions(
    documents.data.map((document) => ({
      title: document.title,
      headings: chunks.data
        .filter((chunk) => chunk.document_id === document.id)
        .flatMap((chunk) => chunk.heading_path),
    })),
  )
}

export const getExampleQuestionsQueryOptions = (workspaceId: string, scope = unscoped) =>
  queryOptions({
    queryKey: [
      ...chatKeys.examples(workspaceId),
      ...(scope.document_ids ?? ['-']),
      ...(scope.collection_ids ?? ['-']),
    ],
    queryFn: ({ signal }) => getExampleQuestions(workspaceId, signal, scope),
  })

export function useExampleQuestions(workspaceId: string, scope?: ExampleScope) {
  return useQuery(getExampleQuestionsQueryOptions(workspaceId, scope))
}
